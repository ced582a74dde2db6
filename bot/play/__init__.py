"""Use cases: the games' application logic over the database and the engines, without Discord."""
