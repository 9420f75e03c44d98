"""The browser front end: static files (``static/``) and the message ids they use."""
