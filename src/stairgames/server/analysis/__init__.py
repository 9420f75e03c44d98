"""The computer's analysis of finished games and the analysis board (above ``play``)."""
