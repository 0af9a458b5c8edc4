"""A scene as an offline web page (export-html, File -> Export web page): Qt-free, over the drawing code."""
