"""The Discord presentation: embeds, views and buttons built from the use cases' results."""
