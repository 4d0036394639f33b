<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="ledgekit" tilewidth="32" tileheight="32" tilecount="81" columns="16">
 <image source="../assets/tiles.png" width="512" height="192"/>
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
 <tile id="24" type="Solid">
  <properties>
   <property name="draw" value="stretch"/>
  </properties>
 </tile>
 <tile id="32">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="33">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="34">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="35">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="36">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="37">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="38">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="39">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="40">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="41">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="42">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="43">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="44">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="45">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="46">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="47">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="48">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="49">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="50">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="51">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="52">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="53">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="54">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="55">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="56">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="57">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="58">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="59">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="60">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="61">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="62">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="63">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="64">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="65">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="66">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="67">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="68">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="69">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="70">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="71">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="72">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="73">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="74">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="75">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="76">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="77">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="78">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="79">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <tile id="80">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0" width="32" height="32"/>
  </objectgroup>
 </tile>
 <wangsets>
  <wangset name="ground" type="mixed" tile="0">
   <wangcolor name="ground" color="#7a5438" tile="16" probability="1"/>
   <wangtile tileid="16" wangid="1,1,1,1,1,1,1,1"/>
   <wangtile tileid="32" wangid="1,1,1,1,1,1,1,0"/>
   <wangtile tileid="33" wangid="1,0,1,1,1,1,1,1"/>
   <wangtile tileid="34" wangid="1,0,1,1,1,1,1,0"/>
   <wangtile tileid="35" wangid="1,1,1,0,1,1,1,1"/>
   <wangtile tileid="36" wangid="1,1,1,0,1,1,1,0"/>
   <wangtile tileid="37" wangid="1,0,1,0,1,1,1,1"/>
   <wangtile tileid="38" wangid="1,0,1,0,1,1,1,0"/>
   <wangtile tileid="39" wangid="1,1,1,1,1,0,1,1"/>
   <wangtile tileid="40" wangid="1,1,1,1,1,0,1,0"/>
   <wangtile tileid="41" wangid="1,0,1,1,1,0,1,1"/>
   <wangtile tileid="42" wangid="1,0,1,1,1,0,1,0"/>
   <wangtile tileid="43" wangid="1,1,1,0,1,0,1,1"/>
   <wangtile tileid="44" wangid="1,1,1,0,1,0,1,0"/>
   <wangtile tileid="45" wangid="1,0,1,0,1,0,1,1"/>
   <wangtile tileid="46" wangid="1,0,1,0,1,0,1,0"/>
   <wangtile tileid="0" wangid="0,0,1,1,1,1,1,0"/>
   <wangtile tileid="47" wangid="0,0,1,0,1,1,1,0"/>
   <wangtile tileid="48" wangid="0,0,1,1,1,0,1,0"/>
   <wangtile tileid="49" wangid="0,0,1,0,1,0,1,0"/>
   <wangtile tileid="50" wangid="1,0,0,0,1,1,1,1"/>
   <wangtile tileid="51" wangid="1,0,0,0,1,1,1,0"/>
   <wangtile tileid="52" wangid="1,0,0,0,1,0,1,1"/>
   <wangtile tileid="53" wangid="1,0,0,0,1,0,1,0"/>
   <wangtile tileid="54" wangid="0,0,0,0,1,1,1,0"/>
   <wangtile tileid="55" wangid="0,0,0,0,1,0,1,0"/>
   <wangtile tileid="56" wangid="1,1,1,0,0,0,1,1"/>
   <wangtile tileid="57" wangid="1,1,1,0,0,0,1,0"/>
   <wangtile tileid="58" wangid="1,0,1,0,0,0,1,1"/>
   <wangtile tileid="59" wangid="1,0,1,0,0,0,1,0"/>
   <wangtile tileid="60" wangid="0,0,1,0,0,0,1,0"/>
   <wangtile tileid="61" wangid="1,0,0,0,0,0,1,1"/>
   <wangtile tileid="62" wangid="1,0,0,0,0,0,1,0"/>
   <wangtile tileid="63" wangid="0,0,0,0,0,0,1,0"/>
   <wangtile tileid="64" wangid="1,1,1,1,1,0,0,0"/>
   <wangtile tileid="65" wangid="1,0,1,1,1,0,0,0"/>
   <wangtile tileid="66" wangid="1,1,1,0,1,0,0,0"/>
   <wangtile tileid="67" wangid="1,0,1,0,1,0,0,0"/>
   <wangtile tileid="68" wangid="0,0,1,1,1,0,0,0"/>
   <wangtile tileid="69" wangid="0,0,1,0,1,0,0,0"/>
   <wangtile tileid="70" wangid="1,0,0,0,1,0,0,0"/>
   <wangtile tileid="71" wangid="0,0,0,0,1,0,0,0"/>
   <wangtile tileid="72" wangid="1,1,1,0,0,0,0,0"/>
   <wangtile tileid="73" wangid="1,0,1,0,0,0,0,0"/>
   <wangtile tileid="74" wangid="0,0,1,0,0,0,0,0"/>
   <wangtile tileid="75" wangid="1,0,0,0,0,0,0,0"/>
   <wangtile tileid="76" wangid="0,0,0,0,0,0,0,0"/>
  </wangset>
 </wangsets>
</tileset>
