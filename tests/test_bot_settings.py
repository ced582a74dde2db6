"""bot.settings: the environment and .env file, read by hand, and the token kept out of sight."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Config, ConfigError, parse_env_file
from db import default_path

TOKEN = "MTIzNDU2Nzg5.secret-token-value"


def test_defaults_without_environment_or_file(tmp_path: Path):
    settings = Config.from_env({}, tmp_path / "missing.env")
    assert settings.token is None
    assert settings.db_path == default_path()
    assert settings.test_guild is None
    assert settings.sharded is False
    assert settings.log_level == "INFO"


def test_every_variable_is_read_from_the_environment(tmp_path: Path):
    settings = Config.from_env({
        "DISCORD_TOKEN": f"  {TOKEN} ", "ARDOISE_DB": str(tmp_path / "class.sqlite3"),
        "ARDOISE_TEST_GUILD": "123456789012345678", "ARDOISE_SHARDED": "Yes",
        "ARDOISE_LOG_LEVEL": "debug",
    }, None)
    assert settings.token == TOKEN
    assert settings.db_path == tmp_path / "class.sqlite3"
    assert settings.test_guild == 123456789012345678
    assert settings.sharded is True
    assert settings.log_level == "DEBUG" and settings.log_level_number == 10


def test_the_env_file_is_read_and_the_environment_wins(tmp_path: Path):
    env = tmp_path / ".env"
    env.write_text(
        "# Ardoise\n"
        f"export DISCORD_TOKEN='{TOKEN}'\n"
        "\n"
        "ARDOISE_TEST_GUILD=42   # my test server\n"
        'ARDOISE_DB="data/with # hash.sqlite3"\n'
        "ARDOISE_LOG_LEVEL=WARNING\n",
        encoding="utf-8")
    settings = Config.from_env({"ARDOISE_LOG_LEVEL": "ERROR"}, env)
    assert settings.token == TOKEN
    assert settings.test_guild == 42
    assert settings.db_path == Path("data/with # hash.sqlite3")
    assert settings.log_level == "ERROR"


def test_an_empty_token_means_no_token():
    assert Config.from_env({"DISCORD_TOKEN": "   "}, None).token is None


def test_the_token_never_shows_in_repr_or_str():
    settings = Config(token=TOKEN)
    for text in (repr(settings), str(settings), f"{settings}"):
        assert TOKEN not in text
        assert "token=<set>" in text
    assert "token=None" in repr(Config(token=None))


@pytest.mark.parametrize(("name", "value"), [
    ("ARDOISE_TEST_GUILD", "my-server"),
    ("ARDOISE_SHARDED", "maybe"),
    ("ARDOISE_LOG_LEVEL", "LOUD"),
])
def test_a_bad_setting_names_its_variable(name: str, value: str):
    with pytest.raises(ConfigError, match=name):
        Config.from_env({name: value}, None)


def test_a_malformed_env_line_is_refused_with_its_number():
    with pytest.raises(ConfigError, match="line 2"):
        parse_env_file("DISCORD_TOKEN=x\nthis is not a setting\n")


def test_the_shards_of_a_process_are_read_as_ids_and_ranges():
    settings = Config.from_env({"ARDOISE_SHARDS": "4, 0-2", "ARDOISE_SHARD_COUNT": "6"}, None)
    assert (settings.shard_ids, settings.shard_count) == ((0, 1, 2, 4), 6)
    assert settings.runs_shards and not settings.sharded
    alone = Config.from_env({"ARDOISE_SHARDS": "1"}, None)  # of Discord's count, checked at start
    assert (alone.shard_ids, alone.shard_count, alone.runs_shards) == ((1,), None, True)
    counted = Config.from_env({"ARDOISE_SHARD_COUNT": "2"}, None)
    assert (counted.shard_ids, counted.shard_count, counted.runs_shards) == (None, 2, True)
    assert not Config.from_env({}, None).runs_shards


@pytest.mark.parametrize(("environ", "message"), [
    ({"ARDOISE_SHARD_COUNT": "0"}, "ARDOISE_SHARD_COUNT must be a whole number, 1 or more, "
                                   "not '0'"),
    ({"ARDOISE_SHARD_COUNT": "two"}, "ARDOISE_SHARD_COUNT must be a whole number, 1 or more, "
                                     "not 'two'"),
    ({"ARDOISE_SHARDS": "0;1"}, "ARDOISE_SHARDS must be shard ids like 0,1 or 0-3, not '0;1'"),
    ({"ARDOISE_SHARDS": "-1"}, "ARDOISE_SHARDS must be shard ids like 0,1 or 0-3, not '-1'"),
    ({"ARDOISE_SHARDS": "3-1"}, "ARDOISE_SHARDS: the range '3-1' goes backwards"),
    ({"ARDOISE_SHARDS": "0,1,1"}, "ARDOISE_SHARDS names a shard twice: '0,1,1'"),
    ({"ARDOISE_SHARDS": "0,2", "ARDOISE_SHARD_COUNT": "2"},
     "ARDOISE_SHARDS names shard 2, but ARDOISE_SHARD_COUNT is 2: the shards are 0 to 1"),
])
def test_a_bad_shard_setting_names_the_variable(environ: dict[str, str], message: str):
    with pytest.raises(ConfigError) as caught:
        Config.from_env(environ, None)
    assert str(caught.value) == message
