"""Focus practice in the browser (issue 30): ``GET /room/practice`` shows the round in progress
at its current question (or, with none, the student's level and a button to start one; after a
round, its summary and "another round"); ``POST /room/practice`` starts a round
(``action=start``) or takes an answer and shows it marked, with the worked correction, and the
next question or the round's summary (score, next level).

The round is chosen as ``/focus practice`` chooses it (the student's level and mastery, the
server's school year), its answers are stored as a member's practice answers (the mastery
moves) and its end moves the level by the same rules (``bot.play.web_study``). The round's
questions are kept on the server: the page sends back only what was typed and the number of the
question answered.
"""

from __future__ import annotations

from aiohttp import web

from bot.domain import DomainError
from bot.focus.adaptive import Advice
from bot.play import web_study
from bot.play.web_study import Practice
from bot.web import pages, study

routes = web.RouteTableDef()

PATH = "/room/practice"


def _advice_lines(practice: Practice, lang: str) -> list[str]:
    """The next level and why (``bot.ui.focus.practice_embed``'s words)."""
    advice: Advice | None = practice.advice
    if advice is None:
        return [pages.text("focus.practice.chosen", lang, level=practice.level,
                           own=practice.own)] if practice.level != practice.own else []
    lines = [pages.text(f"focus.practice.advice.{advice.reason}", lang, level=advice.level)]
    if advice.weak_topics:
        topics = ", ".join(pages.text(f"focus.topics.{topic}", lang)
                           for topic in advice.weak_topics)
        lines.append(pages.text("focus.practice.weak", lang, topics=topics))
    return lines


async def _start_page(request: web.Request, *, notice: str | None = None
                      ) -> web.StreamResponse:
    """No round yet: the student's level and a button to start one."""
    seat = pages.seat(request)
    lang = pages.lang_of(request)
    level = await web_study.practice_level(pages.services(request).db, seat.guild_id,
                                           seat.user_id)
    return pages.render(request, "practice.html", title=pages.text(
        "web_homework.practice_title", lang), notice=notice,
        level=pages.text("web_homework.practice_level", lang, level=level),
        back={"href": "/room", "label": pages.text("web_homework.room", lang)})


def _page(request: web.Request, practice: Practice, *,
          last: study.Correction | None = None, notice: str | None = None, typed: str = "",
          status: int = 200) -> web.StreamResponse:
    lang = pages.lang_of(request)
    back = {"href": "/room", "label": pages.text("web_homework.room", lang)}
    title = pages.text("web_homework.practice_title", lang)
    question = practice.round.current
    if question is None:
        size = len(practice.round.questions)
        return pages.render(
            request, "study_summary.html", status=status, title=title,
            score=pages.text("web_homework.practice_done", lang, score=practice.round.score,
                             size=size),
            lines=_advice_lines(practice, lang), last=last,
            lines_title=pages.text("focus.practice.advice_name", lang),
            answers=study.summary(practice.round, lang),
            total=study.total_time(practice.round, lang),
            again={"action": PATH, "label": pages.text("focus.practice.again", lang)},
            links=[back])
    progress = pages.text("web_homework.question_of", lang, n=practice.round.index + 1,
                          size=len(practice.round.questions))
    return pages.render(request, "study_question.html", status=status, title=title,
                        progress=progress, last=last, notice=notice,
                        question=study.question_view(question, lang),
                        n=practice.round.index, typed=typed, input_mode=study.INPUT_MODE,
                        action=PATH, back=back, round_key=practice.key, closed=None)


@routes.get(PATH)
@pages.require_seat()
async def practice_page(request: web.Request) -> web.StreamResponse:
    seat = pages.seat(request)
    services = pages.services(request)
    practice = await web_study.practice(services.db, seat.guild_id, seat.user_id)
    if practice is None:
        return await _start_page(request)
    if practice.round.current is not None:
        await web_study.showing(services.db, seat.guild_id, seat.user_id, practice.key,
                                practice.round.index, services.clocks.now())
    return _page(request, practice)


@routes.post(PATH)
@pages.require_seat()
async def practice_posted(request: web.Request) -> web.StreamResponse:
    form, seat, services, lang = await pages.posted(request)
    now = services.clocks.now()
    try:
        if form.get("action") == "start":
            started = await web_study.start_practice(services.db, seat.guild_id, seat.user_id,
                                                     services.clocks.seed(), now)
            return _page(request, started)
        typed, index = study.answer_form(form)
        answered = await web_study.answer_practice(
            services.db, seat.guild_id, seat.user_id, str(form.get("round", ""))[:64], index,
            typed, now)
    except DomainError as error:
        return pages.refusal(request, error)
    if answered.practice is None:  # no round begun: nothing to answer
        return await _start_page(request)
    if answered.refusal is not None:
        notice = study.refusal_notice(pages.error_text(answered.refusal, lang), lang)
        return _page(request, answered.practice, notice=notice, typed=typed[:study.MAX_SHOWN],
                     status=400)
    if answered.answer is None:
        return _page(request, answered.practice,
                     notice=pages.text("web_homework.already_answered", lang))
    return _page(request, answered.practice, last=study.correction(answered.answer, lang))
