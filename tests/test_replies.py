"""bot/replies.py on its own: ``fit`` on every limit of Discord, the excerpt of a member's text,
safe display names, pings; and a scan of bot/ and cogs/ that no send or edit bypasses it."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import discord
import pytest
from discord import app_commands, ui
from discord.app_commands.transformers import IdentityTransformer
from discord_markup import active, check_shown, displayed

from bot import replies
from bot.domain import DomainError
from bot.local.server import message_problems
from bot.replies import excerpt, fit, fit_choices, pings, quoted, shown_name
from bot.tree import describe_error
from tests.french import fr

ROOT = Path(__file__).resolve().parent.parent


def payload(message: dict) -> dict:
    """The JSON body discord.py would send for these keyword arguments (what the stand-in
    checks)."""
    data: dict = {}
    if message.get("content") is not None:
        data["content"] = message["content"]
    embeds = ([message["embed"]] if message.get("embed") is not None else []) + list(
        message.get("embeds") or [])
    if embeds:
        data["embeds"] = [e.to_dict() for e in embeds]
    view = message.get("view")
    if view is not None:
        data["components"] = view.to_components()
    return data


def refused(message: dict) -> list[str]:
    return message_problems(payload(message), 0, creating=True)


# --- excerpts and names ---------------------------------------------------------------------


def test_an_excerpt_is_one_short_line_cut_with_an_ellipsis():
    assert excerpt("c4-d5") == "c4-d5"
    long = excerpt("c4-d5" + "x" * 6000)
    assert long.startswith("c4-d5xx") and long.endswith("…") and len(long) == replies.EXCERPT
    assert excerpt("a\nb\t c") == "a b c"
    assert excerpt("x" * 50, limit=10) == "x" * 9 + "…"
    assert excerpt("@everyone <@123456789012345678>") == (
        "@\u200beveryone <@\u200b123456789012345678>")


def test_an_excerpt_renders_no_channel_command_timestamp_or_link():
    typed = "<#123456789012345678> </focus daily:12345678901234567> <t:1764547200:R> https://x.io"
    quoted_back = excerpt(typed, limit=200)
    assert active(quoted_back) == []
    assert displayed(quoted_back) == typed


def test_a_refusals_member_text_is_quoted_as_an_excerpt_and_its_other_params_kept():
    params = quoted({"text": "y" * 3000, "timezone": "Z" * 3000, "cost": 12,
                     "options": "c3-c5, " * 20})
    assert params["text"] == "y" * (replies.EXCERPT - 1) + "…"
    assert params["timezone"].endswith("…") and len(params["timezone"]) == replies.EXCERPT
    assert params["cost"] == 12 and params["options"] == "c3-c5, " * 20


def test_the_trees_refusals_quote_a_members_text_as_an_excerpt():
    # What bot/tree.py tells the member: a value Discord's option could not read, an answer.
    unreadable = app_commands.TransformerError(
        "x" * 3000, discord.AppCommandOptionType.string,
        IdentityTransformer(discord.AppCommandOptionType.string))
    assert describe_error(unreadable, "fr") == (
        fr("Je ne comprends pas « ") + "x" * 39 + fr("… »."), False)
    answer = DomainError("focus.not_a_number", "not a number", text="douze" * 500)
    text, bug = describe_error(answer, "en")
    assert text.startswith("“" + ("douze" * 8)[:39] + "…” is not a whole number") and not bug


def test_a_display_name_is_shown_escaped_and_cut():
    assert shown_name("Ana") == "Ana"
    # The address of a masked link is not a link either: a zero-width space breaks it.
    assert shown_name("[Click me](https://evil.example)") == \
        "\\[Click me](https\u200b://evil.example)"
    assert shown_name("<@123456789012345678>") == "<@\u200b123456789012345678>"
    assert shown_name("@everyone") == "@\u200beveryone"
    assert shown_name("**big** _it_") == "\\*\\*big\\*\\* \\_it\\_"
    assert shown_name("a\nb") == "a b"
    assert shown_name("x" * 300) == "x" * (replies.NAME - 1) + "…"
    assert shown_name("") == "?"


# Every syntax a member's text may hold, with ids of real length (the injection tests' names).
SYNTAXES = ["<#123456789012345678>", "<@&123456789012345679>", "<@123456789012345677>",
            "<@!123456789012345677>", "<@12345678901234567890>", "<#1234567890123456789>",
            "<@&1234567890123456789012>", "</focus practice:123456789012345678>",
            "</focus:123456789012345678>", "<t:1764547200:R>", "<t:1764547200>",
            "<:smile:123456789012345678>", "<a:wave:123456789012345678>", "<id:customize>",
            "@everyone", "@here", "[link](https://example.com)", "[**a**](https://x.y) [b](https://example.com)",
            "https://example.com/a_b", "<https://example.com>", "**bold**", "__under__",
            "~~gone~~", "||spoiler||", "`code`", "# head", "## head", "-# small", "> quote",
            "- item", "* item", "+ item", "1. item", "back\\", "a*b_c"]
INJECTED = ["123456789012345", "1764547200", "example.com", "x.y", "customize", "smile", "wave"]


class Shown:
    """A message that shows ``text`` at the start of its content, or inside the bot's own bold in
    an embed (what ``check_shown`` reads of a stand-in's message)."""

    def __init__(self, text: str = "", *, bold: bool = False, footer: str = "") -> None:
        self.content = "" if bold else f"{text} wins"
        self.embeds = [{"description": f"1. **{text}** · 3 points" if bold else "",
                        "footer": {"text": footer}}]
        self.attachments: list = []

    def walk_components(self) -> list:
        return []


@pytest.mark.parametrize("text", SYNTAXES)
def test_a_members_text_reads_as_typed_and_nothing_in_it_renders(text):
    shown = shown_name(text, None)
    assert displayed(shown) == text
    check_shown(Shown(shown), [text], INJECTED)
    check_shown(Shown(shown, bold=True), [text], INJECTED)


@pytest.mark.parametrize("text", SYNTAXES)
def test_the_checker_finds_what_renders_of_a_raw_text(text):
    # What the injection tests require would fail for each of these if it reached Discord raw,
    # at the start of a line or inside bold.
    refused = 0
    for message in (Shown(text), Shown(text, bold=True)):
        try:
            check_shown(message, [text], INJECTED)
        except AssertionError:
            refused += 1
    assert refused


def test_an_escape_in_a_footer_is_shown_so_the_checker_refuses_it():
    check_shown(Shown(footer="[link](https://example.com)"), ["[link](https://example.com)"],
                INJECTED)
    with pytest.raises(AssertionError):
        check_shown(Shown(footer=shown_name("**bold**")), ["**bold**"], INJECTED)


def test_pings_allow_exactly_the_players_given():
    assert pings(1, 2, None, 1).to_dict() == {"parse": [], "users": [1, 2]}
    assert pings().to_dict() == {"parse": []}
    assert replies.NOBODY.to_dict() == {"parse": []}


# --- fit, one limit at a time -----------------------------------------------------------------


@pytest.fixture
def warnings_of_cuts(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.WARNING, logger="bot.replies")
    return caplog


def test_content_over_2000_is_cut_with_an_ellipsis_and_a_warning(warnings_of_cuts):
    message = {"content": "x" * 2500}
    assert refused(message)
    fitted = fit("test", **message)
    assert len(fitted["content"]) == 2000 and fitted["content"].endswith("…")
    assert refused(fitted) == []
    assert "cut a reply" in warnings_of_cuts.text and "content 2500>2000" in warnings_of_cuts.text


def test_a_reply_that_fits_is_left_exactly_as_it_is(warnings_of_cuts):
    embed = discord.Embed(title="t", description="d").add_field(name="n", value="v")
    fitted = fit("test", content="hello", embed=embed)
    assert fitted["content"] == "hello" and fitted["embed"] is embed
    assert warnings_of_cuts.text == ""


@pytest.mark.parametrize(("part", "limit"), [("title", 256), ("description", 4096)])
def test_an_embeds_title_and_description_are_cut(part, limit):
    embed = discord.Embed(**{part: "y" * (limit + 10)})
    assert refused({"embed": embed})
    cut = fit(embed=embed)["embed"]
    assert len(getattr(cut, part)) == limit and getattr(cut, part).endswith("…")
    assert refused({"embed": cut}) == []


def test_an_embeds_fields_footer_and_author_are_cut():
    embed = discord.Embed(title="t", colour=0x123456)
    embed.add_field(name="n" * 300, value="v" * 1100, inline=False)
    embed.set_footer(text="f" * 2100)
    embed.set_author(name="a" * 300)
    embed.set_image(url="attachment://x.png")
    assert refused({"embed": embed})
    cut = fit(embed=embed)["embed"]
    assert len(cut.fields[0].name) == 256 and len(cut.fields[0].value) == 1024
    assert cut.fields[0].inline is False
    assert len(cut.footer.text) == 2048 and len(cut.author.name) == 256
    assert cut.image.url == "attachment://x.png" and cut.colour == discord.Colour(0x123456)
    assert refused({"embed": cut}) == []


def test_more_than_25_fields_keep_the_first_25():
    embed = discord.Embed(title="t")
    for i in range(30):
        embed.add_field(name=f"n{i}", value="v")
    cut = fit(embed=embed)["embed"]
    assert [f.name for f in cut.fields] == [f"n{i}" for i in range(25)]


def test_the_6000_characters_of_all_embeds_are_shared_the_longest_parts_giving_way():
    embeds = [discord.Embed(title="short", description="d" * 4000),
              discord.Embed(title="also short", description="e" * 3000)]
    for embed in embeds:
        assert refused({"embed": embed}) == []  # each alone fits
    fitted = fit(embeds=embeds)["embeds"]
    total = sum(len(e.title) + len(e.description) for e in fitted)
    assert total <= 6000 and fitted[0].title == "short" and fitted[1].title == "also short"
    assert fitted[0].description.endswith("…")
    one = discord.Embed(title="t", description="d" * 4096)
    for i in range(3):
        one.add_field(name="n", value=str(i) * 1000)
    assert refused({"embed": one})
    assert refused({"embed": fit(embed=one)["embed"]}) == []


def test_more_than_10_embeds_keep_the_first_10():
    embeds = [discord.Embed(title=str(i)) for i in range(12)]
    assert [e.title for e in fit(embeds=embeds)["embeds"]] == [str(i) for i in range(10)]


def test_component_labels_placeholders_and_options_are_cut():
    view = ui.View()
    view.add_item(ui.Button(label="b" * 90, custom_id="b"))
    select: ui.Select = ui.Select(custom_id="s", placeholder="p" * 200, options=[
        discord.SelectOption(label="l" * 120, value=str(i), description="d" * 120)
        for i in range(30)])
    view.add_item(select)
    assert refused({"content": "x", "view": view})
    fitted = fit(content="x", view=view)
    assert refused(fitted) == []
    assert len(view.children[0].label) == 80  # type: ignore[attr-defined]
    assert len(select.placeholder or "") == 150 and len(select.options) == 25
    assert {len(o.label) for o in select.options} == {100}
    assert {len(o.description or "") for o in select.options} == {100}


def test_autocomplete_choices_have_25_names_of_100_characters_at_most():
    choices = [app_commands.Choice(name="c" * 150, value=str(i)) for i in range(30)]
    fitted = fit_choices(choices)
    assert len(fitted) == 25 and {len(c.name) for c in fitted} == {100}
    assert [c.value for c in fitted] == [str(i) for i in range(25)]


def test_a_modals_title_and_input_placeholders_are_cut():
    class Form(ui.Modal):
        typed: ui.TextInput = ui.TextInput(label="q", placeholder="p" * 150)

    form = Form(title="T" * 60)
    cuts = replies._Cuts()
    form.title = cuts.text(form.title, replies.MODAL_TITLE, "title")
    replies.fit_view(form, cuts)
    assert len(form.title) == 45 and len(form.typed.placeholder or "") == 100


# --- nothing sends around bot/replies.py ------------------------------------------------------

SENDS = {"send_message", "send", "edit_original_response", "edit_message", "edit",
         "send_modal"}


def direct_sends() -> list[str]:
    found = []
    files = [*ROOT.joinpath("cogs").rglob("*.py"), *ROOT.joinpath("bot").rglob("*.py")]
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        # bot/replies.py is the one place; bot/local is the stand-in for Discord, not the bot.
        if relative == "bot/replies.py" or relative.startswith("bot/local/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in SENDS
                    and not (isinstance(node.func.value, ast.Name)
                             and node.func.value.id == "replies")):
                found.append(f"{relative}:{node.lineno} .{node.func.attr}(")
    return found


def test_every_send_and_edit_goes_through_bot_replies():
    assert direct_sends() == []


def test_the_scan_finds_a_direct_send():
    # The scan itself: a direct call in a module is found (else the test above proves nothing).
    tree = ast.parse("async def f(i):\n    await i.response.send_message('x')\n")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and n.func.attr in SENDS]
    assert len(calls) == 1
