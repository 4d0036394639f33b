<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="ledgekit" tilewidth="32" tileheight="32" tilecount="24" columns="24">
 <image source="../assets/tiles.png" width="768" height="32"/>
 <tile id="0">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="1">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,32 32,0 32,32"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="2">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,0 32,32 0,32"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="3">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,32 32,16 32,32"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="4">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,16 32,0 32,32 0,32"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="5">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,0 32,16 32,32 0,32"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="6">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,16 32,32 0,32"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="7">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="16" width="32" height="16"/>
  </objectgroup>
 </tile>
 <tile id="8" type="OneWay">
  <properties>
   <property name="one_way" type="bool" value="true"/>
  </properties>
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="8"/>
  </objectgroup>
 </tile>
 <tile id="10" type="Crate"/>
 <tile id="11" type="MovingPlatform">
  <properties>
   <property name="draw" value="repeat"/>
  </properties>
 </tile>
 <tile id="12" type="Hazard">
  <properties>
   <property name="draw" value="repeat"/>
  </properties>
 </tile>
 <tile id="13" type="Goal"/>
 <tile id="14" type="Pickup"/>
 <tile id="15" type="Checkpoint"/>
 <tile id="16">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="17" type="Ladder">
  <properties>
   <property name="draw" value="repeat"/>
  </properties>
 </tile>
 <tile id="18" type="Spring"/>
 <tile id="19" type="Walker">
  <animation>
   <frame tileid="19" duration="250"/>
   <frame tileid="20" duration="250"/>
  </animation>
 </tile>
 <tile id="21" type="Door"/>
 <tile id="22" type="Switch"/>
 <tile id="23" type="FallingPlatform">
  <properties>
   <property name="draw" value="repeat"/>
  </properties>
 </tile>
</tileset>
