"""Homework in the browser (issue 30): ``GET /room/homework`` lists the class's open
assignments, ``GET /room/homework/<id>`` shows the student's attempt at its current question
(begun, or resumed where they left off), ``POST /room/homework/<id>`` takes an answer and shows
it marked, with the worked correction, and the next question or the summary.

The assignments are the room's server's, for everyone: one set for a Discord role is never a
web student's (they hold no role): it is not listed, and its address is refused as on Discord.
Another server's assignment (a forged address) is refused as if it did not exist: one room never
sees another's data. The questions, the storage and the marking are Discord's
(``bot.play.web_study``): the teacher's report shows a web student's answers as a member's.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.domain import DomainError
from bot.play import web_study
from bot.play.assignments import Homework, goal_of
from bot.play.web_study import Attempt
from bot.texts import moment_text
from bot.ui.assignments import goal_progress, goal_text
from bot.web import pages, study

routes = web.RouteTableDef()


def _item(item: Homework, when: Any, lang: str) -> dict[str, Any]:
    """One line of the list: the name, the due moment, the goal, the state and the link."""
    made = item.assignment
    goal = goal_of(made)
    if item.status == "done":
        score = item.attempt.score if item.attempt is not None else 0
        state = (pages.text("homework.list.done", lang, score=score or 0, size=made.count)
                 if goal is None else
                 pages.text("homework.list.done_goal", lang, right=score or 0,
                            count=item.answered))
        action = "web_homework.see"
    elif item.status == "started":
        state = (pages.text("homework.list.started", lang, n=min(item.answered + 1, made.count),
                            size=made.count) if goal is None else
                 pages.text("homework.list.started_goal", lang, count=item.answered,
                            goal=goal_text(goal, lang)))
        action = "web_homework.continue"
    else:
        state = pages.text("homework.list.todo", lang)
        action = "web_homework.start"
    return {"id": made.assignment_id, "name": made.name, "status": item.status,
            "due": pages.text("web_homework.due", lang, due=when(made.due_at)),
            "goal": None if goal is None else pages.text("web_homework.goal", lang,
                                                         goal=goal_text(goal, lang)),
            "state": state, "action": pages.text(action, lang)}


async def _when(request: web.Request) -> Any:
    """The due moments in the server's time zone, in the page's language."""
    seat = pages.seat(request)
    zone = await web_study.zone(pages.services(request).db, seat.guild_id)
    lang = pages.lang_of(request)
    return lambda moment: moment_text(moment.astimezone(zone), lang)


@routes.get("/room/homework")
@pages.require_seat()
async def homework_list(request: web.Request) -> web.StreamResponse:
    seat = pages.seat(request)
    services = pages.services(request)
    found = await web_study.homework(services.db, seat.guild_id, seat.user_id,
                                     services.clocks.now())
    when = await _when(request)
    lang = pages.lang_of(request)
    return pages.render(request, "homework.html",
                        items=[_item(item, when, lang) for item in found])


def _assignment_id(request: web.Request) -> int:
    # The route admits digits only; an id beyond any row's is simply not found.
    return int(request.match_info["assignment"][:18])


def _progress(attempt: Attempt, lang: str) -> str:
    """``Question 3 of 6``; with a goal, ``Question 3`` and where they are on the way."""
    n = attempt.round.index + 1
    goal = goal_of(attempt.assignment)
    if goal is None:
        return pages.text("web_homework.question_of", lang, n=n, size=len(attempt.round.questions))
    correct = [a.correct for a in attempt.round.answers]
    return (pages.text("web_homework.question_n", lang, n=n) + " · "
            + pages.text("web_homework.progress", lang, goal=goal_text(goal, lang),
                         progress=goal_progress(goal, correct, lang)))


def _page(request: web.Request, attempt: Attempt, *, last: study.Correction | None = None,
          notice: str | None = None, typed: str = "", status: int = 200,
          closed: str | None = None) -> web.StreamResponse:
    """The attempt's current question (with the last answer's correction), or its summary;
    ``closed``: the assignment closed as that answer came (taken: its question was shown
    before), and why no question follows."""
    lang = pages.lang_of(request)
    made = attempt.assignment
    back = {"href": "/room/homework", "label": pages.text("web_homework.back", lang)}
    question = attempt.current
    if question is None:
        goal = goal_of(made)
        answers = attempt.round.answers
        right = sum(a.correct for a in answers)
        if goal is None:
            score = pages.text("web_homework.score", lang, score=right,
                               size=len(attempt.round.questions))
            lines: list[str] = []
        else:
            reached = goal.reached([a.correct for a in answers])
            score = pages.text("homework.summary.reached" if reached
                               else "homework.summary.missed", lang, title=made.name)
            lines = [pages.text("homework.summary.text", lang, right=right, count=len(answers),
                                goal=goal_text(goal, lang))]
        return pages.render(request, "study_summary.html", status=status,
                            title=pages.text("web_homework.done_title", lang, name=made.name),
                            score=score, lines=lines, lines_title=None, last=last,
                            answers=study.summary(attempt.round, lang),
                            total=study.total_time(attempt.round, lang), again=None,
                            links=[back])
    return pages.render(request, "study_question.html", status=status,
                        title=made.name, progress=_progress(attempt, lang), last=last,
                        notice=notice, question=study.question_view(
                            question, lang, with_level=made.set_name is None),
                        n=attempt.round.index, typed=typed, input_mode=study.INPUT_MODE,
                        action=f"/room/homework/{made.assignment_id}", back=back,
                        round_key=None, closed=closed)


async def _refused(request: web.Request, error: DomainError) -> web.StreamResponse:
    status = 404 if error.code == "class.assign.gone" else 403 if \
        error.code == "class.assign.not_for_you" else 410
    return pages.render(request, "message.html", status=status,
                        message=pages.error_text(error, pages.lang_of(request)))


@routes.get(r"/room/homework/{assignment:\d{1,18}}")
@pages.require_seat()
async def homework_page(request: web.Request) -> web.StreamResponse:
    seat = pages.seat(request)
    services = pages.services(request)
    now = services.clocks.now()
    try:
        attempt = await web_study.attempt(services.db, _assignment_id(request), seat.guild_id,
                                          seat.user_id, now, await _when(request))
    except DomainError as error:
        return await _refused(request, error)
    if attempt.current is not None:
        await web_study.showing(services.db, seat.guild_id, seat.user_id, attempt.key,
                                attempt.round.index, now)
    return _page(request, attempt)


@routes.post(r"/room/homework/{assignment:\d{1,18}}")
@pages.require_seat()
async def homework_answer(request: web.Request) -> web.StreamResponse:
    form, seat, services, lang = await pages.posted(request)
    now = services.clocks.now()
    typed, index = study.answer_form(form)
    when = await _when(request)
    try:
        answered = await web_study.answer_assignment(
            services.db, _assignment_id(request), seat.guild_id, seat.user_id, index, typed,
            now, when)
    except DomainError as error:
        return await _refused(request, error)
    if answered.refusal is not None:
        # Not a number: nothing counted, the same question again with Focus's own reason.
        notice = study.refusal_notice(pages.error_text(answered.refusal, lang), lang)
        return _page(request, answered.attempt, notice=notice, typed=typed[:study.MAX_SHOWN],
                     status=400)
    if answered.answer is None:
        return _page(request, answered.attempt,
                     notice=pages.text("web_homework.already_answered", lang))
    made = answered.attempt.assignment
    closed = None
    if not answered.attempt.done and not made.is_open(now):
        closed = pages.error_text(DomainError("class.assign.closed", "past its due date",
                                              due=when(made.due_at)), lang)
    return _page(request, answered.attempt, last=study.correction(answered.answer, lang),
                 closed=closed)
