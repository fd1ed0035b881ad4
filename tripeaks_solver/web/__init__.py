"""The local web page (``tripeaks-solve serve``): play along, peek, and step through
best lines in a browser. A layer beside ``cli``: it reads analysis, solver and model."""
