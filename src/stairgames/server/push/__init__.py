"""Web push (issue 54): each device's subscription, the VAPID key, and the messages
"your turn", "new challenge" and "game over" sent to a player's devices while the game's
page is closed (docs/web.md, "Web push")."""
