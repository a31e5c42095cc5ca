"""Every game's rules; importing this package registers each game with the engine's registry."""
