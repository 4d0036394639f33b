"""Levels from the Tiled map editor: loading, authoring conventions, seamless collision outlines."""
