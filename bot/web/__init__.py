"""The class rooms' web server (issue 30): students without a Discord account join their class
from a browser. An adapter beside the cogs: it reads a request, calls a use case (``bot/play``),
renders a page; it reaches no repository itself.

- ``bot.web.app``: the aiohttp application, its middlewares (security headers and the
  Content-Security-Policy, bounded bodies, sessions, the per-session form token, the language),
  and ``WebServer``, which the bot starts when ``ARDOISE_WEB`` is set.
- ``bot.web.pages``: what every page shares (templates, texts, the seat, the form token).
- ``bot.web.join``: the code, the nickname, the room's home page and the language switch.
- ``bot.web.limits``: join attempts per address.

Pages are Jinja2 templates (``templates/``, escaped automatically) with one stylesheet and a
little plain JavaScript (``static/``), all served by the bot: no CDN, font or outside script.
"""
