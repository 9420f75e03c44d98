"""How City of Stairs is shown to people:
the terminal drawing, accounts of actions, the browser's board."""
