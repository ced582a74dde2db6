"""Homework's presentation (``/class assign``): the post and its persistent button, the list of a
server's assignments, the teacher's report. The use cases are ``bot.play.assignments``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

import discord
from discord import app_commands, ui

from bot.domain import DomainError
from bot.focus import FocusRound
from bot.i18n import t
from bot.limits import hit
from bot.play.assignments import (
    DEFAULT_REMINDER,
    MAX_ATTEMPTS,
    NAME_LENGTH,
    REMINDERS,
    Assignment,
    Goal,
    Homework,
    Report,
    goal_of,
)
from bot.play.question_sets import MAX_NAME_CHARS
from bot.play.year_skills import SHOWN_SEPARATOR
from bot.replies import shown_name
from bot.services import Key, services_of
from bot.texts import decimal, moment_text, percent, skill_name
from bot.ui.focus_run import AMBER, GREEN, answer_line, level_text, seconds_text
from bot.ui.members import fetch_members, names_of, web_names
from bot.views import MAX_ID, GameButton
from db import Database

OPEN, CLOSED = 0x2A9D8F, 0x8D99AE
#: Discord's limits of an embed field's value and description, and room for "and N more".
FIELD_LIMIT, DESCRIPTION_LIMIT, MORE_ROOM = 1024, 4096, 60


__all__ = ["DEFAULT_REMINDER"]  # the cog's default (cogs import no use case)

#: ``/class assign reminder:`` [``rappel``]: hours before the due moment (0: none).
REMINDER_OPTIONS = [app_commands.Choice(name=app_commands.locale_str(
    t(f"homework.reminders.{hours}", "en"), key=f"homework.reminders.{hours}"), value=hours)
    for hours in REMINDERS]
#: Discord's longest message content.
CONTENT_LIMIT = 2000


def assignment_key(assignment_id: int, user_id: int) -> str:
    """A student's round of an assignment in the registry of open rounds."""
    return f"assignment:{assignment_id}:{user_id}"


def when_text(moment: datetime, zone: ZoneInfo, lang: str) -> str:
    """``Tuesday 8 December 2026 at 18:00`` / ``mardi 8 décembre 2026 à 18 h``, in ``zone``."""
    return moment_text(moment.astimezone(zone), lang)


#: The most skills a post or the list names (a year's level may ask a dozen).
SKILLS_NAMED = 6


def source_text(assignment: Assignment, lang: str) -> str:
    """What the questions are: a level, a topic, or a teacher's set. A school year's draw
    (``drawn_from``) names its skills: those the teacher chose, else those its questions ask
    (a year's level has no name of its own: its skills are the year's), in the order asked."""
    drawn = assignment.drawn_from
    if assignment.topic is not None:
        return t("class.assign.source.topic", lang, topic=skill_name(assignment.topic, lang))
    if drawn is not None and assignment.set_name is None:
        skills = [str(s) for s in drawn.get("skills") or ()] or asked_skills(assignment)
        names = SHOWN_SEPARATOR.join(skill_name(skill, lang) for skill in skills[:SKILLS_NAMED])
        if len(skills) > SKILLS_NAMED:
            names += SHOWN_SEPARATOR + "…"  # the list of assignments keeps to Discord's fields
        if drawn.get("climb") or assignment.level is None:
            return t("focus_year.source.skills", lang, skills=names)
        return t("focus_year.source.level_skills", lang, level=assignment.level, skills=names)
    if assignment.level is not None:
        return level_text(assignment.level, lang)
    return t("class.assign.source.set", lang, name=shown_name(assignment.set_name or "?",
                                                                MAX_NAME_CHARS))


def asked_skills(assignment: Assignment) -> list[str]:
    """The skills an assignment's questions ask, each once, in the order asked."""
    skills = (str(q.get("skill") or q.get("topic") or "") for q in assignment.questions)
    return list(dict.fromkeys(s for s in skills if s))


def audience_text(assignment: Assignment, lang: str) -> str:
    # A role's mention names it; nobody is pinged (replies send no mentions by default).
    if assignment.role_id is None:
        return t("class.assign.for_everyone", lang)
    return t("class.assign.for_role", lang, role=f"<@&{assignment.role_id}>")


def goal_text(goal: Goal, lang: str) -> str:
    """``10 right answers`` / ``80 % right over the last 10 answers``."""
    if goal.kind == "right":
        return t("homework.goal.right", lang, count=goal.target)
    return t("homework.goal.percent", lang, percent=percent(goal.target / 100, lang),
             count=goal.window)


def goal_progress(goal: Goal, correct: list[bool], lang: str) -> str:
    """Where a student is on the way: ``4/10 right``, ``last 10: 6 right``."""
    if goal.kind == "right":
        return t("homework.progress.right", lang, right=sum(correct), target=goal.target)
    last = correct[-goal.window:]
    return t("homework.progress.percent", lang, right=sum(last), n=len(last))


def goal_summary_embed(round: FocusRound, goal: Goal, lang: str, title: str) -> discord.Embed:
    """The end of an attempt with a goal: reached or not, the right answers out of the answers,
    and the answers with their corrections (the latest, as many as an embed holds)."""
    correct = [a.correct for a in round.answers]
    reached = goal.reached(correct)
    embed = discord.Embed(
        title=t("homework.summary.reached" if reached else "homework.summary.missed", lang,
                title=title),
        colour=GREEN if reached else AMBER)
    head = t("homework.summary.text", lang, right=sum(correct), count=len(correct),
             goal=goal_text(goal, lang))
    if not reached:
        head += "\n" + t("homework.summary.limit", lang, count=MAX_ATTEMPTS)
    # Every answer's line first (the latest kept when they do not all fit), then the worked
    # steps of the wrong ones, the latest first, while they fit: a 60-question attempt keeps
    # all its lines rather than trade early ones for corrections.
    lines = [answer_line(i, a, lang, steps=False) for i, a in enumerate(round.answers)]
    first = len(lines)
    used = len(head) + MORE_ROOM
    while first > 0 and used + len(lines[first - 1]) + 1 <= DESCRIPTION_LIMIT:
        first -= 1
        used += len(lines[first]) + 1
    for i in range(len(lines) - 1, first - 1, -1):
        full = answer_line(i, round.answers[i], lang)
        if used + len(full) - len(lines[i]) <= DESCRIPTION_LIMIT:
            used += len(full) - len(lines[i])
            lines[i] = full
    shown = lines[first:]
    if first:
        shown.insert(0, t("homework.summary.earlier", lang, count=first))
    embed.description = "\n".join([head, "", *shown])
    embed.set_footer(text=t("focus.summary.footer", lang,
                            time=seconds_text(round.total_seconds, lang)))
    return embed


class AssignmentFlows(Protocol):
    """What an assignment's button starts: the classroom cog's flow (``cogs.classroom``)."""

    async def take_assignment(self, interaction: discord.Interaction, assignment_id: int
                              ) -> None: ...

    async def homework(self, interaction: discord.Interaction) -> None:
        """``/focus homework``: the member's open assignments, each with its button."""
        ...


#: Where the services keep the assignments' flow (put there by the classroom cog).
ASSIGNMENT_FLOWS: Key[AssignmentFlows] = Key("class.assignment.flows")


class DoAssignment(GameButton, action="class.assignment"):
    """On an assignment's post: ``class.assignment:<assignment id>:1``."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "round")
        flows = services_of(interaction).kept.get(ASSIGNMENT_FLOWS)
        await flows.take_assignment(interaction, int(self.game_id))


#: Discord's most buttons on one message (5 rows of 5).
MAX_BUTTONS = 25


class HomeworkButton(GameButton, action="focus.homework"):
    """On a student's ``/focus homework`` list: ``focus.homework:<assignment id>:1:<user id>``,
    the assignment opened where they left it (the post's path); anyone else is refused."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.arg_int(1, MAX_ID, "member"):
            raise DomainError("homework.not_yours", "another student's list")
        hit(interaction, "round")
        flows = services_of(interaction).kept.get(ASSIGNMENT_FLOWS)
        await flows.take_assignment(interaction, int(self.game_id))


def _homework_line(item: Homework, zone: ZoneInfo, lang: str) -> str:
    a = item.assignment
    goal = goal_of(a)
    if item.status == "done":
        assert item.attempt is not None
        state = (t("homework.list.done", lang, score=item.attempt.score or 0, size=a.count)
                 if goal is None else
                 t("homework.list.done_goal", lang, right=item.attempt.score or 0,
                   count=item.answered))
    elif item.status == "started" and goal is not None:
        state = t("homework.list.started_goal", lang, count=item.answered,
                  goal=goal_text(goal, lang))
    elif item.status == "started":
        state = t("homework.list.started", lang, n=min(item.answered + 1, a.count),
                  size=a.count)
    else:
        state = t("homework.list.todo", lang)
    return t("homework.list.line", lang, name=shown_name(a.name, NAME_LENGTH),
             due=when_text(a.due_at, zone, lang), state=state)


def homework_embed(items: Sequence[Homework], zone: ZoneInfo, lang: str) -> discord.Embed:
    """``/focus homework``: each open assignment, the soonest due first, with its state."""
    embed = discord.Embed(title=t("homework.list.title", lang, count=len(items)), colour=OPEN)
    if not items:
        embed.description = t("homework.list.empty", lang)
        return embed
    lines = [_homework_line(item, zone, lang) for item in items]
    embed.description = _bounded(lines, lang, DESCRIPTION_LIMIT, "homework.list.more")
    waiting = [item for item in items if item.status != "done"]
    if len(waiting) > MAX_BUTTONS:
        embed.set_footer(text=t("homework.list.too_many", lang, count=MAX_BUTTONS,
                                others=len(waiting) - MAX_BUTTONS))
    else:
        embed.set_footer(text=t("homework.list.footer", lang))
    return embed


def homework_view(items: Sequence[Homework], user_id: int, lang: str) -> ui.View | None:
    """A button for each assignment not done (the first ``MAX_BUTTONS``, the soonest due), for
    that member only; None when there is none."""
    waiting = [item for item in items if item.status != "done"][:MAX_BUTTONS]
    if not waiting:
        return None
    view = ui.View(timeout=None)
    for item in waiting:
        view.add_item(HomeworkButton(
            item.assignment.assignment_id, 1, str(user_id),
            label=shown_name(item.assignment.name, None, markup=False)[:80],
            style=(discord.ButtonStyle.primary if item.status == "started"
                   else discord.ButtonStyle.success)))
    return view


def post_embed(assignment: Assignment, zone: ZoneInfo, lang: str, *, closed: bool = False
               ) -> discord.Embed:
    goal = goal_of(assignment)
    words: dict[str, Any] = {"source": source_text(assignment, lang),
                             "audience": audience_text(assignment, lang),
                             "due": when_text(assignment.due_at, zone, lang)}
    embed = discord.Embed(
        title=t("class.assign.post.title", lang, name=shown_name(assignment.name, NAME_LENGTH)),
        description=(t("class.assign.post.text", lang, count=assignment.count, **words)
                     if goal is None else
                     t("homework.post.goal_text", lang, goal=goal_text(goal, lang),
                       most=MAX_ATTEMPTS, **words)),
        colour=CLOSED if closed else OPEN)
    if assignment.remind_at is not None and not closed:
        hours = round((assignment.due_at - assignment.remind_at).total_seconds() / 3600)
        embed.description = (embed.description or "") + "\n" + t(
            "homework.post.reminder", lang, count=hours)
    embed.set_footer(text=t("class.assign.post.closed_footer" if closed
                            else "class.assign.post.footer", lang))
    return embed


def post_view(assignment: Assignment, lang: str, *, closed: bool = False) -> ui.View:
    """The post's one button: "Do the assignment", or a disabled "Closed" after the due date."""
    view = ui.View(timeout=None)
    view.add_item(DoAssignment(
        assignment.assignment_id, 1,
        label=t("class.assign.closed_button" if closed else "class.assign.button", lang),
        style=discord.ButtonStyle.secondary if closed else discord.ButtonStyle.success,
        disabled=closed))
    return view


def list_embed(assignments: Sequence[Assignment], now: datetime, zone: ZoneInfo, lang: str
               ) -> discord.Embed:
    """``/class assignments``: newest first, each with its due date, audience and progress."""
    embed = discord.Embed(title=t("class.assign.list.title", lang, count=len(assignments)),
                          colour=OPEN)
    if not assignments:
        embed.description = t("class.assign.list.empty", lang)
        return embed
    lines: list[str] = []
    for a in assignments:
        state = "open" if a.is_open(now) else "closed"
        lines.append(t("class.assign.list.line", lang, name=shown_name(a.name, NAME_LENGTH),
                       state=t(f"class.assign.list.{state}", lang,
                               due=when_text(a.due_at, zone, lang)),
                       source=source_text(a, lang), audience=audience_text(a, lang),
                       done=t("class.assign.list.done", lang, count=a.finished),
                       started=a.started - a.finished))
    embed.description = _bounded(lines, lang, DESCRIPTION_LIMIT, "class.assign.list.more")
    return embed


def _bounded(lines: list[str], lang: str, limit: int = FIELD_LIMIT,
             more: str = "class.assign.report.more") -> str:
    """As many lines as fit in ``limit`` characters, then "and N more" (``more``); "Nobody."
    for none."""
    shown: list[str] = []
    used = 0
    for n, line in enumerate(lines):
        if used + len(line) + 1 > limit - MORE_ROOM:
            shown.append(t(more, lang, count=len(lines) - n))
            break
        shown.append(line)
        used += len(line) + 1
    return "\n".join(shown) or t("class.assign.report.nobody", lang)


def _student(report: Report, member: discord.Member | None) -> bool:
    """Still a member of the server, no bot, no teacher."""
    if member is None or member.bot or member.guild_permissions.manage_guild:
        return False
    return {r.id for r in member.roles}.isdisjoint(report.teacher_role_ids)


def _owes(report: Report, member: discord.Member | None) -> bool:
    """Whether a known player who has not begun is one the assignment is for: a student of the
    server (``_student``), with the role if there is one."""
    if member is None or not _student(report, member):
        return False
    role = report.assignment.role_id
    return role is None or any(r.id == role for r in member.roles)


async def not_finished(guild: discord.Guild, report: Report) -> list[int]:
    """Whom the reminder names: those who began and have not finished (still members, not
    teachers), and those the report lists as "not begun" (the known players still members, with
    the role if there is one, not teachers); those who began first, in the report's order."""
    begun = [a.user_id for a in report.unfinished]
    members = await fetch_members(guild, begun + report.not_started)
    return ([uid for uid in begun if _student(report, members.get(uid))]
            + [uid for uid in report.not_started if _owes(report, members.get(uid))])


def reminder_messages(assignment: Assignment, students: Sequence[int], zone: ZoneInfo,
                      lang: str) -> list[str]:
    """The reminder: the assignment, its due moment and the students not finished, mentioned;
    more than a message holds goes on in the next ones (nobody is left out)."""
    head = t("homework.reminder.text", lang, name=shown_name(assignment.name, NAME_LENGTH),
             due=when_text(assignment.due_at, zone, lang), count=len(students))
    messages: list[str] = []
    current = head
    for uid in students:
        mention = f"<@{uid}>"
        if len(current) + 1 + len(mention) > CONTENT_LIMIT:
            messages.append(current)
            current = t("homework.reminder.more", lang)
        current += " " + mention
    messages.append(current)
    return messages


async def report_people(guild: discord.Guild, report: Report, lang: str, *, pseudonym: bool,
                        db: Database) -> tuple[dict[int, str], list[int]]:
    """The names the report shows (display names, or "Student 1…N" in the report's order) and
    who has not begun: the known players still in the server, with the role if there is one,
    who are not teachers. Fetched together: the bot has no member list (no privileged intent),
    and a member who left is no longer fetched (the ones who began it are named "a former
    member")."""
    wanted = [a.user_id for a in report.attempts] + report.not_started
    members = {uid: member for uid, member in (await fetch_members(guild, wanted)).items()
               if member is not None}
    # A web student ("Léa (web)") has no role: an assignment for everyone is theirs too.
    web = await web_names(db, guild.id, wanted, lang)
    absent = [uid for uid in report.not_started if _owes(report, members.get(uid))
              or (uid in web and report.assignment.role_id is None)]
    order = [a.user_id for a in report.attempts] + absent
    if pseudonym:
        return {uid: t("class.assign.student", lang, n=n) for n, uid in enumerate(order, 1)}, absent
    gone = t("class.assign.report.former_member", lang)
    named = names_of({uid: members.get(uid) for uid in order}, absent=gone)
    return {uid: web.get(uid, name) for uid, name in named.items()}, absent


def report_embed(report: Report, names: dict[int, str], missing: Sequence[int], lang: str
                 ) -> discord.Embed:
    """The teacher's report: who finished (score, time), who began, who has not begun."""
    a = report.assignment
    goal = report.goal
    words: dict[str, Any] = {"source": source_text(a, lang),
                             "audience": audience_text(a, lang),
                             "due": when_text(a.due_at, report.zone, lang)}
    embed = discord.Embed(
        title=t("class.assign.report.title", lang, name=shown_name(a.name, NAME_LENGTH)),
        description=(t("class.assign.report.text", lang, count=a.count, **words)
                     if goal is None else
                     t("homework.report.text", lang, goal=goal_text(goal, lang), **words)),
        colour=OPEN)
    finished = report.finished
    if goal is None:
        done = [t("class.assign.report.done_line", lang, name=shown_name(names[x.user_id]),
                  score=x.score, size=a.count,
                  time=seconds_text((x.time_ms or 0) / 1000, lang)) for x in finished]
        begun = [t("class.assign.report.started_line", lang,
                   name=shown_name(names[x.user_id]),
                   answered=len(report.answers.get(x.user_id, [])), size=a.count)
                 for x in report.unfinished]
    else:
        done = [t("homework.report.reached_line" if report.reached(x.user_id)
                  else "homework.report.missed_line", lang,
                  name=shown_name(names[x.user_id]), right=x.score,
                  count=len(report.answers.get(x.user_id, [])),
                  time=seconds_text((x.time_ms or 0) / 1000, lang)) for x in finished]
        begun = [t("homework.report.started_line", lang, name=shown_name(names[x.user_id]),
                   right=sum(y.correct for y in report.answers.get(x.user_id, [])),
                   count=len(report.answers.get(x.user_id, [])))
                 for x in report.unfinished]
    embed.add_field(name=t("class.assign.report.done", lang, count=len(done)),
                    value=_bounded(done, lang), inline=False)
    embed.add_field(name=t("class.assign.report.started", lang, count=len(begun)),
                    value=_bounded(begun, lang), inline=False)
    embed.add_field(name=t("class.assign.report.missing", lang, count=len(missing)),
                    value=_bounded([shown_name(names[uid]) for uid in missing], lang),
                    inline=False)
    if finished and goal is not None:
        embed.add_field(name=t("homework.report.reached", lang),
                        value=t("homework.report.reached_value", lang,
                                reached=sum(report.reached(x.user_id) for x in finished),
                                count=len(finished)), inline=False)
    elif finished:
        mean = sum(x.score or 0 for x in finished) / len(finished)
        embed.add_field(name=t("class.assign.report.mean", lang),
                        value=t("class.assign.report.mean_value", lang,
                                mean=decimal(mean, lang, 1),
                                size=a.count), inline=False)
    embed.set_footer(text=t("class.assign.report.footer", lang))
    return embed

