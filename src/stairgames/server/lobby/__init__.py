"""The lobby: challenges, who is on line, seat names, rated results (above ``play``)."""
