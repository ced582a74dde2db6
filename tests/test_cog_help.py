"""/help through the real bot: a student sees only what they may use, a teacher (Manage Server or
a teachers' role) also the "For teachers" sections; every line is a command of the tree, in the
member's language, and the whole fits Discord's limits."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.ui.help import TEACHER_OPTIONS, TEACHERS, for_teachers, help_embed
from bot.ui.teachers import EVERYONE
from tests.french import fr

TEACHER_TITLE = re.compile(r"^(For teachers|Pour les professeurs)")


def sections(record) -> dict[str, str]:
    return {f["name"]: f["value"] for f in record.reply.embeds[0]["fields"]}


def paths(text: str) -> set[str]:
    """The command paths of the lines of a section: "`/focus practice [level]` — …"."""
    found = set()
    for usage in re.findall(r"^`(/[^`]+)`", text, re.M):
        words = [w for w in usage.split() if not w.startswith(("<", "[")) and
                 not w.endswith(":")]
        found.add(" ".join(words))
    return found


def english_paths(bot) -> set[str]:
    return {"/" + c.qualified_name for c in bot.tree.walk_commands()
            if not isinstance(c, app_commands.Group)}


async def test_a_student_sees_only_the_commands_they_may_use(standin, start_bot):
    bot = await start_bot()
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "help")
    assert record.ephemeral
    shown = sections(record)
    assert not any(TEACHER_TITLE.match(title) for title in shown)
    text = "\n".join(shown.values())
    listed = paths(text)
    assert {"/focus practice", "/progress", "/settings show", "/help"} <= listed
    assert not listed & {"/focus live", "/settings focus", "/settings teachers add",
                         "/class report"}
    assert "`/progress` — " in text  # without the teachers' option
    assert listed <= english_paths(bot)


async def test_a_teacher_also_sees_the_teachers_commands(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    shown = sections(await standin.slash(head, "help"))
    # A section too long for one field goes on in the next, "(continued)": one section here.
    teachers: dict[str, str] = {}
    for title, value in shown.items():
        if TEACHER_TITLE.match(title):
            key = title.removesuffix(" (continued)")
            teachers[key] = f"{teachers[key]}\n{value}" if key in teachers else value
    assert set(teachers) == {"For teachers: /class", "For teachers: /focus",
                             "For teachers: /settings", "For teachers"}
    assert ("`/focus live [count] [level] [seconds] [set] [auto] [skill]`"
            in teachers["For teachers: /focus"])
    assert ("`/class report [period] [topic] [role] [pseudonym] [assignment] [student]"
            " [web_student]` — "
            in teachers["For teachers: /class"])
    assert "`/progress member:` — A student's progress" in teachers["For teachers"]
    assert "`/settings show`" not in teachers["For teachers: /settings"]
    # An option is named as it is typed, even when the code calls it otherwise (issue 29).
    assert "[set]" in teachers["For teachers: /class"]
    assert "question_set" not in "\n".join(shown.values())
    # Every command of the tree is shown once, to a teacher: the list is the tree.
    listed = [p for value in shown.values() for p in paths(value)]
    assert set(listed) == english_paths(bot)
    # The /class lines are the /class commands that exist, no more.
    assert {p for title, value in teachers.items() if title.startswith("For teachers: /class")
            for p in paths(value)} == {p for p in english_paths(bot) if p.startswith("/class ")}


async def test_a_member_of_a_teachers_role_sees_them_too_in_french(standin, start_bot):
    bot = await start_bot()
    maths = standin.add_role("Profs de maths")
    await bot.db.servers.set_admin_roles(standin.guild.id, [maths.id])
    prof = standin.add_member("M. Petit", locale="fr", roles=[maths])
    shown = sections(await standin.slash(prof, "aide"))
    assert ("`/focus classe [questions] [niveau] [secondes] [série] [automatique] [compétence]`"
            in shown[fr("Pour les professeurs : /focus")])
    assert "`/réglages voir` — Voir tous les réglages de ce serveur" in shown["/réglages"]
    assert "`/progrès membre:` — Les progrès d'un élève" in shown["Pour les professeurs"]
    assert shown[fr("Pour les professeurs : /classe")].startswith("`/classe bilan [période]")
    léa = standin.add_member("Léa", locale="fr")
    assert not any(TEACHER_TITLE.match(t) for t in sections(await standin.slash(léa, "aide")))


async def test_the_help_fits_discords_limits_in_both_languages(standin, start_bot):
    bot = await start_bot()
    for lang in ("en", "fr"):
        for teacher in (False, True):
            embed = help_embed(bot.tree, lang, teacher=teacher)
            assert len(embed) <= 6000 and len(embed.fields) <= 25
            assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)


async def test_the_tables_name_commands_that_exist(standin, start_bot):
    bot = await start_bot()
    names = {c.qualified_name for c in bot.tree.walk_commands()}
    assert names >= TEACHERS and names >= EVERYONE
    for command, options in TEACHER_OPTIONS.items():
        found = bot.tree.get_command(command)
        assert found is not None
        assert set(options) <= {p.name for p in found.parameters}
    assert for_teachers(bot.tree.get_command("settings").get_command("focus"))
    assert not for_teachers(bot.tree.get_command("settings").get_command("show"))


def test_a_new_teachers_group_is_for_teachers_from_its_default_permission_alone():
    group = app_commands.Group(name="extra", description="Extra things")
    marked = app_commands.Group(name="staff", description="Staff things",
                                default_permissions=discord.Permissions(manage_guild=True))

    @group.command(name="hello", description="Say hello")
    async def hello(interaction) -> None: ...

    @marked.command(name="audit", description="Look at everything")
    async def audit(interaction) -> None: ...

    assert not for_teachers(hello) and for_teachers(audit)


async def test_in_a_direct_message_the_servers_commands_are_not_listed(standin, start_bot):
    bot = await start_bot()
    text = "\n".join(f.value for f in help_embed(bot.tree, "en", in_server=False).fields)
    assert "`/digits rules [show]`" in text
    assert "/settings" not in text and "/progress" not in text and "/class" not in text
