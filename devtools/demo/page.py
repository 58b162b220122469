"""A Record drawn as one HTML page that looks like a Discord channel, beside each private view.

The page is self-contained apart from its pictures, which are written once each (named by
their content's hash) into an `images/` folder beside it. No script: each person's
private view is a tab made of CSS alone. Every word the page writes of its own (Discord's
chrome, its headings, what people did) is the game's language's, from the catalogs
(`demo.*`), and it reads on a phone: below 900 px the private views follow the channel,
and nothing is wider than the screen.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import re
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal

from bot.i18n.catalogs import has, t
from devtools.demo.record import Command, Did, Record, Shown

#: Discord's button colours by style (primary, secondary, success, danger, link).
BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
MESSAGE_LINK = re.compile(r"https://discord\.com/channels/\d+/\d+/(\d+)")

STYLE = """
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: #313338; color: #dbdee1; font: 15px/1.4 "DejaVu Sans", sans-serif;
  overflow-wrap: anywhere; }
header { padding: 12px 20px; background: #2b2d31; border-bottom: 1px solid #1f2023; }
header h1 { margin: 0; font-size: 18px; color: #f2f3f5; }
header p { margin: 4px 0 0; color: #b5bac1; font-size: 13px; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
section { overflow-y: auto; padding: 8px 0; min-width: 0; }
.to-private { display: none; color: #00a8fc; font-size: 14px; }
section.private { background: #2b2d31; border-left: 1px solid #1f2023; }
h2 { margin: 8px 16px; font-size: 13px; text-transform: uppercase; color: #949ba4; }
.msg { display: grid; grid-template-columns: 40px minmax(0, 1fr); gap: 0 14px; padding: 6px 16px; }
.msg:hover { background: #2e3035; }
.avatar { width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff;
  display: flex; align-items: center; justify-content: center; font-weight: bold; }
.who { font-weight: 600; color: #f2f3f5; }
.when, .tag { color: #949ba4; font-size: 12px; margin-left: 6px; white-space: nowrap; }
.tag { background: #5865f2; color: #fff; border-radius: 3px; padding: 0 4px; }
.used { color: #949ba4; font-size: 13px; grid-column: 2; }
.edit { border-left: 2px solid #4e5058; margin-left: 56px; padding-left: 12px; }
.gone { color: #949ba4; font-style: italic; }
.only { color: #949ba4; font-size: 12px; }
.did { color: #b5bac1; font-size: 13px; padding: 2px 16px 2px 70px; }
.did::before { content: "▸ "; color: #23a559; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
code { background: #1e1f22; border-radius: 3px; padding: 0 3px; font-size: 13px; }
.embed { display: grid; max-width: 520px; margin-top: 4px; background: #2b2d31; border-radius: 4px;
  border-left: 4px solid #1e1f22; padding: 8px 16px 12px 12px; overflow-x: auto; }
.embed > * { min-width: 0; }
.private .embed { background: #232428; }
.embed .title { font-weight: 600; color: #f2f3f5; margin: 4px 0; }
.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(120px, 100%), 1fr));
  gap: 8px; margin-top: 8px; }
.field { min-width: 0; }
.field.wide { grid-column: 1 / -1; }
.field .name { font-weight: 600; color: #f2f3f5; font-size: 13px; }
img { max-width: 100%; height: auto; }
.embed img, .file img { border-radius: 4px; margin-top: 8px; }
.footer { color: #949ba4; font-size: 12px; margin-top: 8px; }
.separator { border: 0; border-top: 1px solid #3f4147; width: 100%; margin: 8px 0 2px; }
.row { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.button { color: #fff; border-radius: 3px; padding: 2px 12px; font-size: 14px; min-height: 32px;
  display: inline-flex; align-items: center; gap: 4px; max-width: 100%; }
.button.off { opacity: .5; }
.select { background: #1e1f22; border-radius: 4px; padding: 8px; color: #949ba4;
  width: min(300px, 100%); }
.tabs > input { display: none; }
.tabs > label { display: inline-block; padding: 6px 12px; margin: 4px 0 0 12px; cursor: pointer;
  border-radius: 4px; color: #b5bac1; }
.tabs > .pane { display: none; }
@media (min-width: 901px) {
  body { display: flex; flex-direction: column; height: 100vh; }
  main { flex: 1; min-height: 0; }
}
@media (max-width: 900px) {
  main { display: block; }
  section.private { border-left: 0; border-top: 1px solid #1f2023; }
  .to-private { display: inline-block; margin-top: 6px; }
}
@media (max-width: 500px) {
  header { padding: 10px 12px; }
  h2 { margin: 8px 12px; }
  .msg { grid-template-columns: 32px minmax(0, 1fr); gap: 0 10px; padding: 6px 8px; }
  .avatar { width: 32px; height: 32px; }
  .edit { margin-left: 12px; padding-left: 8px; }
  .did { padding: 2px 8px 2px 12px; }
  .embed { padding: 6px 10px 10px 8px; }
  .tabs > label { margin-left: 8px; }
}
"""


def write(rec: Record, path: Path, language: str, summary: list[str]) -> Path:
    """Write the page to `path` in `language` (its pictures beside it, in images/), under
    the lines of `summary`; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    images = path.parent / "images"
    page = _Page(rec, images, language)
    path.write_text(page.document(summary), encoding="utf-8")
    return path


class _Page:
    def __init__(self, rec: Record, images: Path, language: str) -> None:
        self.rec, self.images, self.language = rec, images, language
        self.start = rec.started_at or datetime.datetime.now(datetime.UTC)

    def t(self, key: str, **params: object) -> str:
        """The catalog's words for `key` in the game's language (HTML-escaped)."""
        return _e(t(self.language, key, **params))

    def document(self, summary: list[str]) -> str:
        title = self.t("demo.title")
        people = list(self.rec.private)
        tabs_css = "".join(
            f"#tab{i}:checked ~ label[for=tab{i}] {{ background: #404249; color: #fff; }}\n"
            f"#tab{i}:checked ~ #pane{i} {{ display: block; }}\n"
            for i in range(len(people))
        )
        radios = "".join(
            f'<input type="radio" name="tabs" id="tab{i}"{" checked" if i == 0 else ""}>'
            for i in range(len(people))
        )
        labels = "".join(f'<label for="tab{i}">{_e(name)}</label>' for i, name in enumerate(people))
        panes = "".join(
            f'<div class="pane" id="pane{i}"><h2>{self.t("demo.private", name=name)}</h2>'
            + "".join(self.entry(s, private=True) for s in self.rec.private[name])
            + "</div>"
            for i, name in enumerate(people)
        )
        channel = "".join(self.entry(s, private=False) for s in self.rec.channel)
        return (
            "<!DOCTYPE html>\n"
            f'<html lang="{_e(self.language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{STYLE}{tabs_css}</style></head><body>"
            f"<header><h1>{title}</h1><p>{_e(' · '.join(summary))}</p>"
            f'<a class="to-private" href="#private">{self.t("demo.to_private")}</a></header>'
            f'<main><section class="channel"><h2># {_e(self.rec.channel_name)}</h2>{channel}'
            '</section><section class="private" id="private">'
            f'<div class="tabs">{radios}{labels}{panes}'
            "</div></section></main></body></html>\n"
        )

    # ------------------------------------------------------------------ entries

    def entry(self, shown: Shown | Did, *, private: bool) -> str:
        when = f'<span class="when">{self.offset(shown.at)}</span>'
        if isinstance(shown, Did):
            return f'<div class="did">{self.did(shown)} {when}</div>'
        anchor = f' id="m{shown.message_id}"' if shown.edit == 0 else ""
        if shown.deleted:
            return ""  # told on the message itself, below
        if shown.gone_at is not None:  # short-lived (a turn ping): one grey line
            lasted = self.decimal((shown.gone_at - shown.at).total_seconds(), "0.0")
            text = self.markdown(shown.content or shown.text(), shown.at)
            return (
                f'<div class="did gone">{text} {when} '
                f'<span class="when">{self.t("demo.removed", seconds=lasted)}</span></div>'
            )
        body = self.body(shown)
        if shown.edit:
            anchor = f'id="m{shown.message_id}-{shown.edit}"'
            return (
                f'<div class="msg edit" {anchor}><div></div>'
                f"<div>{self.t('demo.edit', number=shown.edit)} {when}{body}</div></div>"
            )
        used = ""
        if shown.used_by is not None:
            who, command = shown.used_by.name, self.command(shown.used_by.command)
            used = f'<div class="used">{self.t("demo.used", name=who, command=command)}</div>'
        where = f'<span class="tag">{self.t("demo.tag.dm")}</span>' if shown.dm else ""
        only = (
            f'<div class="only">{self.t("demo.ephemeral")}</div>'
            if private and shown.ephemeral
            else ""
        )
        return (
            f'<div class="msg"{anchor}>{used}<div class="avatar">A</div><div>'
            f'<span class="who">Apophis</span><span class="tag">{self.t("demo.tag.app")}</span>'
            f"{where}{when}{body}{only}</div></div>"
        )

    def did(self, did: Did) -> str:
        """What a person did, in words: the command they typed, or the control they used."""
        if did.command is not None:
            return _e(self.command(did.command, with_options=True))
        if did.chose is None:
            return self.t("demo.did.clicked", control=did.control)
        return self.t("demo.did.chose", choices=", ".join(did.chose), control=did.control)

    def command(self, command: Command, *, with_options: bool = False) -> str:
        """'/apophis start', or with its options 'apophis start first:@Ada', as the person's
        Discord showed it: its names and choices in the game's language (not escaped)."""
        path = ".".join(command.words)
        words = [
            self.named(f"command.{'.'.join(command.words[: i + 1])}.name", word)
            for i, word in enumerate(command.words)
        ]
        if with_options:
            words += [
                f"{self.named(f'command.{path}.{name}.name', name)}:"
                + self.named(f"choice.{name}.{value}", self.named(f"choice.{value}", value))
                for name, value in command.options
            ]
        return "/" + " ".join(words)

    def named(self, key: str, otherwise: str) -> str:
        """The catalog's words for `key` where it has the message; else `otherwise`."""
        return t(self.language, key) if has(key) else otherwise

    def body(self, shown: Shown) -> str:
        parts = []
        if shown.content:
            parts.append(f"<div>{self.markdown(shown.content, shown.at)}</div>")
        attached = {a.filename: a for a in shown.attachments}
        for embed in shown.embeds:
            parts.append(self.embed(embed, attached, shown.at))
        for attachment in attached.values():
            if attachment.filename not in self.used_in_embeds(shown.embeds):
                parts.append(f'<div class="file">{self.image(attachment)}</div>')
        parts.append(self.laid_out(shown.components, shown.at))
        return "".join(parts)

    def laid_out(self, components: list[dict[str, Any]], at: datetime.datetime) -> str:
        """Components as Discord lays them out: rows of controls, and a Components V2
        message's containers (boxed like an embed, in their accent colour), text displays
        and separators."""
        out = []
        for item in components:
            kind, inside = item.get("type"), item.get("components", [])
            if kind == 1:
                out.append(f'<div class="row">{"".join(map(self.component, inside))}</div>')
            elif kind == 10:
                out.append(f"<div>{self.markdown(item['content'], at)}</div>")
            elif kind == 14:
                out.append('<hr class="separator">')
            elif kind == 17:
                colour = item.get("accent_color")
                style = f' style="border-left-color: #{colour:06x}"' if colour is not None else ""
                out.append(f'<div class="embed"{style}>{self.laid_out(inside, at)}</div>')
        return "".join(out)

    def embed(self, embed: dict[str, Any], attached: dict, at: datetime.datetime) -> str:
        colour = embed.get("color")
        style = f' style="border-left-color: #{colour:06x}"' if isinstance(colour, int) else ""
        out = [f'<div class="embed"{style}>']
        if embed.get("title"):
            out.append(f'<div class="title">{self.markdown(embed["title"], at)}</div>')
        if embed.get("description"):
            out.append(f"<div>{self.markdown(embed['description'], at)}</div>")
        fields = embed.get("fields", [])
        if fields:
            out.append('<div class="fields">')
            for f in fields:
                wide = "" if f.get("inline") else " wide"
                name, value = self.markdown(f["name"], at), self.markdown(f["value"], at)
                out.append(
                    f'<div class="field{wide}"><div class="name">{name}</div>'
                    f"<div>{value}</div></div>"
                )
            out.append("</div>")
        url = (embed.get("image") or {}).get("url", "")
        if url.startswith("attachment://") and url[13:] in attached:
            out.append(self.image(attached[url[13:]]))
        if embed.get("footer", {}).get("text"):
            out.append(f'<div class="footer">{_e(embed["footer"]["text"])}</div>')
        out.append("</div>")
        return "".join(out)

    @staticmethod
    def used_in_embeds(embeds: list[dict[str, Any]]) -> set[str]:
        urls = [(e.get("image") or {}).get("url", "") for e in embeds]
        return {u[13:] for u in urls if u.startswith("attachment://")}

    def image(self, attachment) -> str:
        name = hashlib.sha1(attachment.content).hexdigest()[:16] + Path(attachment.filename).suffix
        self.images.mkdir(parents=True, exist_ok=True)
        target = self.images / name
        if not target.exists():
            target.write_bytes(attachment.content)
        alt = attachment.description or attachment.filename
        return f'<img src="images/{name}" alt="{_e(alt)}">'

    def component(self, item: dict[str, Any]) -> str:
        emoji = (item.get("emoji") or {}).get("name", "")
        if item.get("type") == 2:
            colour = BUTTON_COLOURS.get(item.get("style", 2), "#4e5058")
            off = " off" if item.get("disabled") else ""
            return (
                f'<span class="button{off}" style="background: {colour}">'
                f"{_e(emoji)} {_e(item.get('label', ''))}</span>"
            )
        options = ", ".join(o.get("label", "") for o in item.get("options", []))
        placeholder = _e(item.get("placeholder") or t(self.language, "demo.select"))
        return f'<span class="select" title="{_e(options)}">{placeholder} ▾</span>'

    # ----------------------------------------------------------------- text

    def offset(self, at: datetime.datetime) -> str:
        """When, after the game's first message: "+1:05.3" (a decimal comma in French)."""
        seconds = max((at - self.start).total_seconds(), 0.0)
        return f"+{int(seconds // 60)}:{self.decimal(seconds % 60, '00.0')}"

    def decimal(self, number: float, pattern: str) -> str:
        return format_decimal(number, pattern, locale=self.language)

    def markdown(self, text: str, at: datetime.datetime) -> str:
        """The bit of Discord's markdown the bot uses, mentions and timestamps included."""
        out = _e(text)
        out = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", self.link, out)
        jump = self.t("demo.jump")
        out = MESSAGE_LINK.sub(lambda m: f'<a href="#m{m[1]}">{jump}</a>', out)
        out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out, flags=re.S)
        out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
        out = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: self.mention(int(m[1]), "@"), out)
        out = re.sub(
            r"&lt;#(\d+)&gt;",
            lambda m: f'<span class="mention">#{_e(self.rec.channel_name)}</span>',
            out,
        )
        out = re.sub(r"&lt;t:(\d+)(?::([tTdDfFR]))?&gt;", lambda m: self.timestamp(m, at), out)
        out = re.sub(r"^### (.*)$", r'<span class="title">\1</span>', out, flags=re.M)
        out = re.sub(r"^-# (.*)$", r'<span class="footer">\1</span>', out, flags=re.M)
        return out.replace("\n", "<br>")

    @staticmethod
    def link(match: re.Match) -> str:
        """A markdown link; one to a Discord message jumps to it on the page."""
        text, url = match[1], match[2]
        found = MESSAGE_LINK.fullmatch(url)
        return f'<a href="{f"#m{found[1]}" if found else url}">{text}</a>'

    def mention(self, user_id: int, prefix: str) -> str:
        return (
            f'<span class="mention">{prefix}{_e(self.rec.names.get(user_id, str(user_id)))}</span>'
        )

    def timestamp(self, match: re.Match, at: datetime.datetime) -> str:
        """A Discord timestamp as a reader sees it: relative to when it was shown ("in
        9:58"), or as a time of day (UTC) in the styles that show one."""
        unix, style = int(match[1]), match[2] or "f"
        if style in "tT":
            when = datetime.datetime.fromtimestamp(unix, datetime.UTC)
            return f"<code>{when.strftime('%H:%M:%S' if style == 'T' else '%H:%M')}</code>"
        seconds = round(unix - at.timestamp())
        span = f"{abs(seconds) // 60}:{abs(seconds) % 60:02d}"
        key = "demo.time.in" if seconds >= 0 else "demo.time.ago"
        return f"<code>{self.t(key, span=span)}</code>"


def _e(text: str | None) -> str:
    return html.escape(text or "", quote=True)
