"""The widow exchange and table shared by La Viuda and Whiskey Poker."""
