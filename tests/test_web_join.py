"""Joining a class room from a browser (issue 30): the code, the nickname, the seat kept by the
cookie, the refusals, the headers every page carries. Real bot, real web server, HTTP client."""

from __future__ import annotations

import pytest

from bot.play import web_rooms
from bot.web.limits import FREE_MISSES, JoinLimiter
from tests.web_helpers import Student, open_room, start_web_bot


async def test_a_student_joins_with_the_code_and_a_nickname_and_keeps_the_seat(
        start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin, name="5e B")
    async with Student(bot.web.base_url) as student:
        page = await student.join(room.code.lower(), "Léa")
        assert page.status == 200 and page.url.endswith("/room"), page.text
        assert "Léa" in page.text and "5e B" in page.text
        again = await student.get("/")  # coming back on the same device: the same seat
        assert again.url.endswith("/room")
    seats = await bot.services.db.web_rooms.seats_of_room(room.room_id)
    assert [s.nickname for s in seats] == ["Léa"] and seats[0].user_id < 0
    assert await web_rooms.nicknames(bot.services.db, standin.guild.id) == {
        seats[0].user_id: "Léa"}


async def test_every_page_carries_the_security_headers_and_the_cookie_is_strict(
        start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        page = await student.get("/")
        assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        assert page.headers["X-Content-Type-Options"] == "nosniff"
        await student.post("/join", {"code": room.code})
        async with student.session.post(f"{bot.web.base_url}/join/{room.code}",
                                         data={"nickname": "Tom", "csrf": student.last.csrf},
                                         allow_redirects=False) as response:
            cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


async def test_a_script_nickname_is_refused_and_shown_as_text(start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        page = await student.join(room.code, "<script>alert(1)</script>")
        assert page.status == 400
        assert "<script>alert" not in page.text and "&lt;script&gt;" in page.text


async def test_a_form_without_its_token_changes_nothing(start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        page = await student.post("/join", {"code": room.code}, csrf=False)
        assert page.status == 403
        await student.get(f"/join/{room.code}")
        forged = await student.post(f"/join/{room.code}", {"nickname": "Tom", "csrf": "x"})
        assert forged.status == 403
    assert await bot.services.db.web_rooms.seats_of_room(room.room_id) == []


async def test_a_wrong_code_is_said_then_the_address_waits(start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    async with Student(bot.web.base_url) as student:
        await student.get("/")
        statuses = [(await student.post("/join", {"code": "KKKKKK"})).status
                    for _ in range(FREE_MISSES + 1)]
        assert statuses == [404] * FREE_MISSES + [429]
        assert "Wait 10 seconds" in student.last.text


async def test_a_closed_room_says_so(start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        assert (await student.join(room.code, "Tom")).status == 200
        await bot.services.db.web_rooms.close(room.room_id, bot.services.clocks.now())
        page = await student.get("/room")
        assert page.status == 410 and "closed" in page.text


async def test_bodies_are_bounded(start_bot, standin) -> None:
    bot = await start_web_bot(start_bot)
    async with Student(bot.web.base_url) as student:
        await student.get("/")
        page = await student.post("/join", {"code": "K" * 40_000})
        assert page.status == 413


def test_nicknames_are_bounded_and_filtered() -> None:
    assert web_rooms.read_nickname("  Léa   B. ") == "Léa B."
    for bad, code in [("a", "short"), ("x" * 25, "long"), ("@everyone", "character"),
                      ("<@123>", "character"), ("bit.ly/x", "link"), ("www.site", "link"),
                      ("Tom\u0007", "control"), ("Tom\u202e", "control")]:
        with pytest.raises(web_rooms.DomainError) as refused:
            web_rooms.read_nickname(bad)
        assert refused.value.code == f"web.nickname_{code}", bad


def test_codes_avoid_look_alikes_and_are_read_forgivingly() -> None:
    assert not set("0O1IL2Z5S8B6GQ") & set(web_rooms.CODE_ALPHABET)
    assert web_rooms.read_code(" k7m-xpa ") == "K7MXPA"
    assert web_rooms.read_code("K7MXP") is None and web_rooms.read_code("K7MXP0") is None


def test_the_limiter_waits_longer_at_each_miss_and_forgets_a_success() -> None:
    now = [0.0]
    limiter = JoinLimiter(lambda: now[0])
    assert [limiter.missed("a") for _ in range(FREE_MISSES)] == [0.0] * FREE_MISSES
    assert limiter.missed("a") == 10.0 and limiter.wait("a") == 10.0
    assert limiter.wait("b") == 0.0
    now[0] = 11.0
    assert limiter.wait("a") == 0.0 and limiter.missed("a") == 30.0
    limiter.succeeded("a")
    assert limiter.wait("a") == 0.0
