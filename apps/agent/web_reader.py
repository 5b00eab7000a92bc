"""Client of the `web_reader` tool: the readable text of one public web page, behind an SSRF guard.

The page's host is resolved once and the connection is made to that address (the Host header and the
TLS server name stay the page's), so a second DNS answer cannot point it elsewhere. Every address of
the answer must be public: loopback, private, link-local, CGNAT, multicast, reserved and cloud
metadata ranges are refused, IPv4 and IPv6 alike (IPv4 inside IPv6 too). Redirects are followed by
hand, each hop checked the same way. The body is streamed and refused past the size cap; only text
is read, HTML without its scripts and styles. Every failure comes back as `{"error": "..."}` for the
model to read, never as an exception.
"""

from __future__ import annotations

import codecs
import ipaddress
import logging
import re
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin

from pydantic import BaseModel, ConfigDict, Field

logger = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
MAX_URL_CHARS = 2000
REDIRECTS = (301, 302, 303, 307, 308)
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_TEXT_TYPES = ("application/json", "application/ld+json", "application/xml", "application/rss+xml")
# Ranges `ipaddress` calls global but nobody outside may reach, and the metadata services of the big clouds
# (most also sit in link-local, CGNAT or ULA space; listed so the guard does not rest on that alone).
_BLOCKED: tuple[IPNetwork, ...] = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",
        "100.64.0.0/10",  # CGNAT (Alibaba's metadata: 100.100.100.200)
        "169.254.0.0/16",  # link-local (AWS, GCP, Azure metadata: 169.254.169.254)
        "192.0.0.0/24",  # IETF protocol assignments (Oracle's metadata: 192.0.0.192)
        "198.18.0.0/15",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "fc00::/7",  # unique local (AWS's IPv6 metadata: fd00:ec2::254)
        "fe80::/10",
        "fec0::/10",
        "ff00::/8",
    )
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class WebReaderArgs(BaseModel):
    """Read the text of one public web page (http or https), e.g. a link search_web returned. Use only for
    facts that are not in the user's data; cite the page."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=1, max_length=MAX_URL_CHARS, description="the page's http(s) address")


@dataclass(frozen=True)
class ReaderLimits:
    max_bytes: int = 2_000_000
    max_chars: int = 8_000
    timeout_s: float = 10.0
    max_redirects: int = 5
    allowed: tuple[IPNetwork, ...] = field(default=())  # reachable although private (tests, an intranet wiki)


class Refused(Exception):
    """Why the page is not read, in words for the model."""


def networks(entries: Iterable[str]) -> tuple[IPNetwork, ...]:
    """The allow-list setting's entries (addresses or networks) as networks."""
    return tuple(ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def is_public(address: IPAddress) -> bool:
    """Whether anyone on the internet could reach this address (IPv4 inside IPv6 is judged as IPv4)."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None and not is_public(inner):
            return False
        if address.ipv4_mapped is not None:
            return True
    if any(address in network for network in _BLOCKED if network.version == address.version):
        return False
    return address.is_global and not (
        address.is_multicast or address.is_reserved or address.is_loopback or address.is_link_local
    )


def allowed_address(address: IPAddress, limits: ReaderLimits) -> bool:
    if any(address.version == n.version and address in n for n in limits.allowed):
        return True
    return is_public(address)


def resolve(host: str, port: int, limits: ReaderLimits) -> IPAddress:
    """The one address to connect to; refused when any address of the answer is not public."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(f"the host {host!r} could not be resolved; check the address") from exc
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    if not addresses:
        raise Refused(f"the host {host!r} has no address")
    if not all(allowed_address(a, limits) for a in addresses):
        raise Refused(
            f"{host!r} points to a private, local or reserved network address, which web_reader may not reach; "
            "read only public pages"
        )
    return addresses[0]


def read_page(url: str, *, limits: ReaderLimits) -> dict[str, Any]:
    """`{"url", "title", "content", "truncated"}` of the page, or `{"error": message}`."""
    import httpx

    deadline = time.monotonic() + limits.timeout_s
    try:
        with httpx.Client(trust_env=False, follow_redirects=False, verify=True) as client:
            return _follow(client, url.strip(), limits, deadline)
    except Refused as exc:
        return _error(str(exc))
    except httpx.TimeoutException:
        return _error(f"the page did not answer within {limits.timeout_s:g} s; answer without it")
    except (httpx.TransportError, httpx.InvalidURL) as exc:
        return _error(f"the page could not be reached ({type(exc).__name__}); answer without it")
    except Exception as exc:  # the tool contract: a failed read is a result, never a crash of the run
        logger.exception("web_reader: unexpected failure")
        return _error(f"reading the page failed ({type(exc).__name__}); answer without it")


def _follow(client: Any, url: str, limits: ReaderLimits, deadline: float) -> dict[str, Any]:
    for _hop in range(limits.max_redirects + 1):
        target, headers, extensions = _pinned_request(url, limits)
        timeout = max(0.05, deadline - time.monotonic())
        with client.stream("GET", target, headers=headers, extensions=extensions, timeout=timeout) as response:
            if response.status_code in REDIRECTS and response.headers.get("location"):
                url = urljoin(url, response.headers["location"])
                continue
            if not response.is_success:
                raise Refused(f"the page answered HTTP {response.status_code}; answer without it")
            body, mime, charset = _body(response, limits, deadline)
        return _page(url, body, mime, charset, limits)
    raise Refused(f"the page redirected more than {limits.max_redirects} times; answer without it")


def _pinned_request(url: str, limits: ReaderLimits) -> tuple[Any, dict[str, str], dict[str, Any]]:
    """The request to the page's resolved address, with the page's own Host header and TLS server name."""
    import httpx

    if len(url) > MAX_URL_CHARS:
        raise Refused("the address is too long")
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise Refused("the address is not a valid URL; give a full http(s) address") from exc
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise Refused("only http and https pages can be read; give a full http(s) address")
    if parsed.userinfo:
        raise Refused("addresses with a user name or password are not read")
    host = parsed.raw_host.decode("ascii")  # IDNA-encoded; an IPv6 literal without its brackets
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    address = resolve(host, port, limits)
    shown = f"[{host}]" if ":" in host else host
    host_header = shown if parsed.port is None else f"{shown}:{parsed.port}"
    headers = {
        "Host": host_header,
        "User-Agent": "BA-Platform-web_reader/1.0",
        "Accept": "text/html, text/plain;q=0.9, */*;q=0.1",
        "Accept-Encoding": "identity",
    }
    extensions = {"sni_hostname": host} if parsed.scheme == "https" else {}
    return parsed.copy_with(host=str(address), port=port), headers, extensions


def _content_type(response: Any) -> tuple[str, str]:
    value = response.headers.get("content-type", "")
    mime = value.split(";", 1)[0].strip().lower()
    found = re.search(r"charset=[\"']?([\w.:-]+)", value, re.IGNORECASE)
    return mime, found.group(1) if found else ""


def _body(response: Any, limits: ReaderLimits, deadline: float) -> tuple[bytes, str, str]:
    mime, charset = _content_type(response)
    if mime and not (mime.startswith("text/") or mime in _HTML_TYPES or mime in _TEXT_TYPES):
        raise Refused(f"the page is not text ({mime}); web_reader reads text and HTML pages only")
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.max_bytes:
        raise Refused(f"the page is larger than {limits.max_bytes:,} bytes; read a smaller page")
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > limits.max_bytes:
            raise Refused(f"the page is larger than {limits.max_bytes:,} bytes; read a smaller page")
        if time.monotonic() > deadline:
            raise Refused(f"the page took longer than {limits.timeout_s:g} s to read; answer without it")
        chunks.append(chunk)
    body = b"".join(chunks)
    if b"\x00" in body[:4096]:
        raise Refused("the page is not text (binary content); web_reader reads text and HTML pages only")
    return body, mime, charset


def _decode(body: bytes, charset: str, html: bool) -> str:
    if not charset and html:
        found = re.search(rb"<meta[^>]+charset=[\"']?([\w.:-]+)", body[:4096], re.IGNORECASE)
        charset = found.group(1).decode("ascii", "replace") if found else ""
    try:
        codec = codecs.lookup(charset or "utf-8").name
    except LookupError:
        codec = "utf-8"
    if body.startswith(codecs.BOM_UTF8):
        body, codec = body[len(codecs.BOM_UTF8) :], "utf-8"
    return body.decode(codec, errors="replace")


def _page(url: str, body: bytes, mime: str, charset: str, limits: ReaderLimits) -> dict[str, Any]:
    html = mime in _HTML_TYPES or (not mime and body.lstrip()[:1] == b"<")
    text = _decode(body, charset, html)
    title = ""
    if html:
        reader = _Readable()
        reader.feed(text)
        reader.close()
        title, text = reader.title(), reader.text()
    else:
        text = "\n".join(" ".join(line.split()) for line in text.splitlines()).strip()
        text = re.sub(r"\n{3,}", "\n\n", text)
    truncated = len(text) > limits.max_chars
    return {
        "url": url,
        "title": title[:300],
        "content": text[: limits.max_chars] + ("…" if truncated else ""),
        "truncated": truncated,
    }


class _Readable(HTMLParser):
    """HTML -> the text a reader sees: no scripts, styles or other invisible parts; blocks on their own lines."""

    SKIPPED = frozenset({"script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "head"})
    BLOCKS = frozenset(
        {
            "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "footer",
            "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
            "section", "table", "td", "th", "tr", "ul",
        }
    )  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._skip = 0
        self._in_title = False
        self._title: list[str] = []
        self._parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in self.SKIPPED:
            self._skip += 1
        elif tag in self.BLOCKS:
            self._parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCKS:
            self._parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in self.SKIPPED:
            self._skip = max(0, self._skip - 1)
        elif tag in self.BLOCKS:
            self._parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title.append(data)
        elif not self._skip:
            self._parts.append(data)

    def title(self) -> str:
        return " ".join("".join(self._title).split())

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self._parts).split("\n"))
        return "\n".join(line for line in lines if line)


def _error(message: str) -> dict[str, Any]:
    logger.warning("web_reader: %s", message)
    return {"error": message}
