"""Placement's conductor (issue 26), part of the Focus conductor (``bot.flows.focus.FocusFlow``
holds one and registers it as ``PLACEMENT_FLOWS``): the offer before a new student's first
practice round, its buttons, ``/focus placement``, the click on a teacher's class post, and the
placement's round owner; the teacher's side (``/class placement``: the post and the results) is
``post`` and ``results`` here, which the classroom's conductor calls.

A placement is asked in the Focus window (``bot.ui.focus_run``) one question at a time: its
owner, ``PlacementRound``, stores each answer as a practice answer and the placement's state
(``bot.play.placement``), then appends the next question (drawn at the next level) to the
window's round, which shows it; when the placement is over the round is finished too, and the
end says the level chosen. The state is in the database: after a restart, the offer's button,
the class post's button or ``/focus placement`` go on at the question that was waiting.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

from bot import replies
from bot.domain import DomainError
from bot.focus import Answer, FocusRound, Question
from bot.focus.placement import MAX_QUESTIONS, Placement
from bot.i18n import lang_for, t
from bot.play import placement as play
from bot.play.placement import PlacementRun
from bot.replies import interaction_data
from bot.services import Services
from bot.tree import report_error
from bot.ui import placement as ui
from bot.ui.focus_run import FocusRun, action_button, close_run, start_focus, stored_answer
from bot.ui.members import fetch_members, web_names
from bot.ui.teachers import member_teaches

#: An offer's custom id (``bot.ui.placement.PlacementChoice``).
OFFER_PREFIX = "placement.offer:"
_OFFER = re.compile(r"placement\.offer:(?P<user>[0-9]{1,20}):1:(?P<what>go|skip)")

if TYPE_CHECKING:
    from bot.flows.focus import FocusFlow


def round_of(placement: Placement) -> FocusRound:
    """The window's round of a placement begun or resumed: its questions asked so far (the
    waiting one last) and their answers as the placement knows them."""
    questions = list(placement.questions)
    answers = [_answered(q, step.correct) for q, step in zip(questions, placement.steps,
                                                              strict=False)]
    return FocusRound(questions, answers)


def _answered(question: Question, correct: bool) -> Answer:
    # Only the mark matters to the window (the count and the score): the typed answer and its
    # time are in focus_answers.
    return Answer(question=question.text, topic=question.topic, level=question.level,
                  expected=question.answer, given=question.answer if correct else None,
                  correct=correct, seconds=0.0, skill=question.skill, form=question.form)


class PlacementRound:
    """The owner of a placement's window (``bot.ui.focus_run.RoundOwner``)."""

    def __init__(self, conductor: PlacementConductor, run: PlacementRun, seed: int) -> None:
        self.conductor = conductor
        self.run = run
        self.seed = seed

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        flow = self.conductor.flow
        try:
            self.run = await play.answer(
                flow.services.db, run.guild_id, run.user_id, self.run,
                stored_answer(run, answer, len(run.round.answers)), answer, self.seed,
                flow.now())
        except DomainError:
            close_run(run)  # moved on elsewhere, skipped or erased: this window is done
            raise
        waiting = self.run.placement.current
        if waiting is not None:
            run.round.questions.append(waiting)  # the round shows it next

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        placement = self.run.placement
        conductor = self.conductor

        async def practise(clicked: discord.Interaction) -> None:
            await conductor.flow.start_practice(clicked, None, in_place=True, offer=False)

        view = discord.ui.View(timeout=None)
        view.add_item(action_button(interaction, kind="practice",
                                    label=t("placement.end.practise", run.lang),
                                    on_click=practise, window=run.window))
        await replies.update(interaction, embed=ui.end_embed(placement, placement.result,
                                                             run.lang), view=view)


class PlacementConductor:
    """The student's side of placement, and the teacher's post and results."""

    def __init__(self, flow: FocusFlow) -> None:
        self.flow = flow

    # --- the student's side ---------------------------------------------------------------

    async def offer_if_new(self, interaction: discord.Interaction) -> bool:
        """Before a practice round: whether the member is offered a placement (then the offer
        is their answer, privately)."""
        assert interaction.guild_id is not None
        offer = await play.offered(self.flow.services.db, interaction.guild_id,
                                   interaction.user.id)
        if offer is None:
            return False
        lang = await lang_for(interaction)
        running = offer == "running"
        await replies.respond(interaction, embed=ui.offer_embed(lang, running=running),
                              view=ui.offer_view(interaction.user.id, lang, running=running),
                              ephemeral=True)
        return True

    async def placement_offer(self, interaction: discord.Interaction, owner: int, go: bool
                              ) -> None:
        """A click on an offer's button: only the member it was made to."""
        if interaction.user.id != owner:
            raise DomainError("placement.not_yours", "this offer is another member's")
        if go:
            await self.start(interaction, "offer", in_place=True)
            return
        assert interaction.guild_id is not None
        await play.skip(self.flow.services.db, interaction.guild_id, owner, self.flow.now())
        await self.flow.start_practice(interaction, None, in_place=True, offer=False)

    async def take_forged_offer(self, interaction: discord.Interaction) -> None:
        """A click with an offer's custom id on a message that does not show it (a modified
        client): the route of ``bot.views.Route``. Refused to anyone but the member the offer
        was made to; theirs is answered in a new private message (never over the message it
        was sent on)."""
        custom_id = str(interaction_data(interaction).get("custom_id", ""))
        found = _OFFER.fullmatch(custom_id)
        try:
            if found is None or int(found["user"]) != interaction.user.id:
                raise DomainError("placement.not_yours", "this offer is another member's")
            if found["what"] == "go":
                await self.start(interaction, "offer")
            else:
                assert interaction.guild_id is not None
                await play.skip(self.flow.services.db, interaction.guild_id,
                                interaction.user.id, self.flow.now())
                await self.flow.start_practice(interaction, None, offer=False)
        except Exception as error:
            await report_error(interaction, error)

    async def placement_from_post(self, interaction: discord.Interaction, posted: int) -> None:
        """A click on a teacher's class post: the clicking student's own placement."""
        await self.start(interaction, "class", posted=datetime.fromtimestamp(posted, UTC))

    async def again(self, interaction: discord.Interaction) -> None:
        """``/focus placement``: the running one, or a new one (once a week at most)."""
        await self.start(interaction, "again")

    async def start(self, interaction: discord.Interaction, reason: str, *,
                    posted: datetime | None = None, in_place: bool = False) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        flow = self.flow
        seed = flow.seed()
        run = await play.begin(flow.services.db, interaction.guild_id, interaction.user.id,
                               seed, flow.now(), reason, posted,
                               lambda moment, zone: ui.when_text(moment, zone, lang))
        await start_focus(interaction, round_of(run.placement), lang,
                          owner=PlacementRound(self, run, seed), kind="practice",
                          key=f"placement:{interaction.guild_id}:{interaction.user.id}",
                          title=ui.run_title(lang), in_place=in_place,
                          data={"placement": True}, round_key=run.round_key,
                          time_factor=run.time_factor, size=MAX_QUESTIONS)


# --- the teacher's side (``/class placement``, the classroom's conductor calls these) -------


async def post(interaction: discord.Interaction, now: datetime) -> None:
    """``/class placement``: the post with "Find my level" in the channel (the post's time in
    its button: a student who finished a placement since is not asked again)."""
    lang = await lang_for(interaction)
    await replies.respond(interaction, embed=ui.post_embed(lang),
                          view=ui.post_view(int(now.timestamp()), lang))


async def results(services: Services, interaction: discord.Interaction, pseudonym: bool
                  ) -> None:
    """``/class placement results:True``: each student's level chosen and when, privately;
    the known players still in the server, not bots nor teachers, who have not taken one are
    listed as such. ``pseudonym``: "Student N" as the class report numbers them."""
    lang = await lang_for(interaction)
    guild = interaction.guild
    assert guild is not None
    await interaction.response.defer(ephemeral=True, thinking=True)
    db = services.db
    found = await play.class_results(db, guild.id)
    settings = await db.servers.get(guild.id)
    wanted = list(dict.fromkeys([*found.rows, *found.players]))
    members = {uid: m for uid, m in (await fetch_members(guild, wanted)).items()
               if m is not None and not m.bot and not member_teaches(m, settings)}
    web = await web_names(db, guild.id, wanted, lang)  # "Léa (web)": a student, no member
    students = [uid for uid in wanted if uid in members or uid in web]
    if pseudonym:
        rank = {uid: n for n, uid in enumerate(found.order, 1)}
        extra = iter(range(len(found.order) + 1, len(found.order) + len(students) + 1))
        numbers = {uid: rank[uid] if uid in rank else next(extra) for uid in students}
        order = sorted(students, key=lambda uid: numbers[uid])
        names = {uid: t("class.report.pseudonym", lang, number=numbers[uid]) for uid in order}
    else:
        names = {uid: web[uid] if uid in web else members[uid].display_name
                 for uid in students}
        order = sorted(students, key=lambda uid: names[uid].casefold())
    await replies.followup(interaction, embed=ui.results_embed(
        order, names, found.rows, settings.tz(), lang, pseudonyms=pseudonym), ephemeral=True)
