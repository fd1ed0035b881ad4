"""``serve --host`` on the local network prints the address a phone opens, with its
token, and that address as a QR code drawn with text; the loopback prints none. Nothing
but the loopback is bound: the address the server would listen on is pretended."""

from __future__ import annotations

import ipaddress
import re
import socket

import qrcode
from click.testing import CliRunner

from tripeaks_solver.cli import serve as serve_cli
from tripeaks_solver.cli.group import cli


def modules(text: str) -> list[list[bool]]:
    """The light modules of a QR code drawn with half blocks (two rows a line)."""
    rows: list[list[bool]] = []
    for line in text.splitlines():
        top = [c in "█▀" for c in line]
        bottom = [c in "█▄" for c in line]
        rows += [top, bottom]
    return rows


def test_the_text_qr_code_is_the_code_of_the_address():
    url = "http://192.168.1.20:8765/?token=Zm9vYmFyLWJhei1xdXV4"
    drawn = modules(serve_cli.qr_text(url))
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    want = [[not dark for dark in row] for row in code.get_matrix()]  # light drawn
    assert drawn[:len(want)] == want
    assert all(not any(row) for row in drawn[len(want):])  # an odd count: a blank half line


def run_serve(monkeypatch, tmp_path, pretend: str, host: str) -> str:
    """``serve --host HOST`` as if bound to ``pretend`` (really on the loopback), up to
    where it would serve."""
    real_bind = serve_cli._bind
    monkeypatch.setattr(serve_cli, "_bind", lambda _h, port: real_bind("127.0.0.1", port))
    monkeypatch.setattr(serve_cli, "_address", lambda _s: ipaddress.ip_address(pretend))
    monkeypatch.setattr(serve_cli, "_lan_address", lambda: "10.1.2.3")

    class Server:
        def run(self, sockets):
            for sock in sockets:
                sock.close()

    monkeypatch.setattr(serve_cli, "_stopping_server", lambda config, stop: Server())
    result = CliRunner().invoke(cli, ["serve", "--host", host, "--port", "0", "--no-open",
                                      "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_serve_on_the_lan_prints_the_phone_s_address_and_its_qr_code(monkeypatch, tmp_path):
    out = run_serve(monkeypatch, tmp_path, "192.168.1.20", "192.168.1.20")
    found = re.search(r"On a phone on this network, open (http://192\.168\.1\.20:\d+/\?token=\S+)"
                      r" or scan:", out)
    assert found, out
    served = re.search(r"Serving \S+ on (\S+)", out).group(1)
    assert served == found.group(1)  # the address printed, with its token
    lines = out.splitlines()
    art = "\n".join(lines[lines.index(found.group(0)) + 1:])
    code = qrcode.QRCode(border=2)
    code.add_data(found.group(1))
    code.make(fit=True)
    assert modules(art)[:len(code.get_matrix())] == [[not d for d in row]
                                                      for row in code.get_matrix()]


def test_serve_on_every_address_gives_the_phone_the_lan_address(monkeypatch, tmp_path):
    out = run_serve(monkeypatch, tmp_path, "0.0.0.0", "0.0.0.0")
    assert re.search(r"open http://10\.1\.2\.3:\d+/\?token=\S+ or scan:", out), out
    assert socket.gethostname() in re.search(r"Serving \S+ on (\S+)", out).group(1)


def test_serve_on_the_loopback_prints_no_qr_code(monkeypatch, tmp_path):
    out = run_serve(monkeypatch, tmp_path, "127.0.0.1", "127.0.0.1")
    assert "token" not in out and "phone" not in out and "█" not in out
