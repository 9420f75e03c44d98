"""How 27 is shown to people:
the terminal drawing, accounts of actions, the browser's board."""
