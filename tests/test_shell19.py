"""Passwords of command lines and of sentences that name them late (issue 12, shell19;
cold19's family 5): a password that is positional, under a flag named for no password,
fed on standard input or sent by ``expect``; and a value written before its label. Each
command family in each carrier: shell text, ``shlex.join``'s, an argv list's Python repr
and its JSON, and the failure line of a real ``subprocess.CalledProcessError`` raised in
a tool (through ``Session.call``). The flags stay."""

from __future__ import annotations

import json
import os
import shlex
import stat
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

PW = "jwJYnB244*fau"
_SYMBOLS = "!#%*^+=~"


def strong() -> st.SearchStrategy[str]:
    """A password with letters of both cases, digits and a symbol (8-20 characters)."""
    return st.builds(
        lambda up, low, digits, symbol, tail: up + low + digits + symbol + tail,
        st.text(string.ascii_uppercase, min_size=1, max_size=3),
        st.text(string.ascii_lowercase, min_size=3, max_size=6),
        st.text(string.digits, min_size=2, max_size=4),
        st.sampled_from(_SYMBOLS),
        st.text(string.ascii_letters + string.digits + _SYMBOLS, min_size=1, max_size=6),
    )


# -- 1. the commands' table: an argv, the password's index, the flags that must stay ----

ARGVS: list[tuple[list[str], str]] = [
    (["htpasswd", "-b", ".htpasswd", "admin", "{v}"], "-b"),
    (["htpasswd", "-nbB", "admin", "{v}"], "-nbB"),
    (["htpasswd", "-bC", "12", "/etc/nginx/.htpasswd", "bob", "{v}"], "-bC"),
    (["sshpass", "-p", "{v}", "ssh", "deploy@host"], "-p"),
    (["openssl", "enc", "-aes-256-cbc", "-k", "{v}", "-in", "a", "-out", "b"], "-k"),
    (["openssl", "pkcs12", "-in", "a.p12", "-passin", "pass:{v}"], "-passin"),
    (["useradd", "-m", "-p", "{v}", "deploy"], "-p"),
    (["usermod", "--password", "{v}", "deploy"], "usermod"),
    (["ssh-keygen", "-t", "ed25519", "-N", "{v}", "-f", "id_ed25519"], "-N"),
    (["ssh-keygen", "-p", "-P", "{v}", "-N", "{v}", "-f", "k"], "-P"),
    (["vault", "login", "{v}"], "login"),
    (["vault", "login", "-no-print", "{v}"], "-no-print"),
    (["mysql", "-u", "root", "-p{v}", "app"], "-u"),
    (["mongosh", "-u", "admin", "-p", "{v}", "--authenticationDatabase", "admin"], "-p"),
    (["redis-cli", "-a", "{v}", "ping"], "-a"),
    (["smbclient", "//srv/share", "-U", "bob%{v}"], "-U"),
    (["curl", "-u", "bob:{v}", "https://api.example.com"], "-u"),
    (["wget", "--password", "{v}", "https://example.com/f"], "--password"),
    (["lftp", "-u", "bob,{v}", "ftp.example.com"], "-u"),
    (["docker", "login", "-u", "ci", "-p", "{v}", "ghcr.io"], "-p"),
    (["env", "PGPASSWORD={v}", "psql", "-h", "db"], "psql"),
    (["env", "RSYNC_PASSWORD={v}", "rsync", "-a", "src", "rsync://bob@host/mod"], "rsync"),
]


def _argv(shape: list[str], value: str) -> list[str]:
    return [item.format(v=value) for item in shape]


def carriers(argv: list[str]) -> dict[str, str]:
    """The texts an argv is written as: ``shlex.join``'s shell text, words joined by
    blanks, its Python repr, its JSON and ``CalledProcessError``'s message."""
    return {
        "shlex.join": shlex.join(argv),
        "joined": " ".join(argv),
        "repr": repr(argv),
        "json": json.dumps(argv),
        "json compact": json.dumps(argv, separators=(",", ":")),
        "error": str(subprocess.CalledProcessError(1, argv)),
    }


@pytest.mark.parametrize(("shape", "flag"), ARGVS, ids=lambda x: str(x)[:40])
def test_each_command_loses_its_password_in_every_carrier(shape: list[str], flag: str) -> None:
    for carrier, text in carriers(_argv(shape, PW)).items():
        out = th.redact(text)
        assert PW not in out, (carrier, out)
        assert flag in out, (carrier, out)  # the flag (or the command's word) stays


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(ARGVS), strong(), st.sampled_from(["shlex.join", "repr", "json", "error"]))
def test_random_passwords_go_from_every_command_and_carrier(
    case: tuple[list[str], str], value: str, carrier: str
) -> None:
    shape, flag = case
    text = carriers(_argv(shape, value))[carrier]
    out = th.redact(text)
    assert value not in out, (text, out)
    assert flag in out, (text, out)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(string.ascii_letters + string.digits + "!#%*'\" $", min_size=8, max_size=20))
def test_shlex_quoting_of_any_password_is_read_whole(value: str) -> None:
    """``shlex.join`` glues quoted pieces (``'a'"'"'b'``): the whole word goes."""
    text = shlex.join(["sshpass", "-p", value, "ssh", "host"])
    pieces = [p for p in shlex.split(shlex.quote(value).replace("'\"'\"'", "' '")) if p]
    out = th.redact(text)
    if (
        value.strip()
        and th.redact(f"password={shlex.quote(value)}") != f"password={shlex.quote(value)}"
    ):
        for piece in pieces:
            if len(piece) >= 4:
                assert piece not in out.replace("sshpass -p", ""), (text, out)
    assert out.startswith("sshpass -p ") and out.endswith(" ssh host"), out


# -- 2. passwords fed on standard input, and expect's send --------------------------------

PIPED = [
    ("echo '{v}' | sudo -S apt update", "sudo -S apt update"),
    ("echo {v} | sudo -kS systemctl restart nginx", "sudo -kS"),
    ("printf '%s\\n' '{v}' | sudo --stdin true", "sudo --stdin"),
    ("echo 'bob:{v}' | chpasswd", "bob:"),
    ("echo 'bob:{v}' | sudo chpasswd", "bob:"),
    ("echo -e '{v}\\n{v}' | passwd deploy", "passwd deploy"),
    ("echo '{v}' | passwd --stdin deploy", "--stdin"),
    ("echo '{v}' | docker login -u ci --password-stdin ghcr.io", "--password-stdin"),
    ("echo '{v}' | gh auth login --with-token", "--with-token"),
    ("echo '{v}' | kinit bob@EXAMPLE.COM", "kinit"),
    ("echo -n '{v}' | cryptsetup luksOpen /dev/sdb1 vault", "luksOpen"),
    ("echo '{v}' | htpasswd -i .htpasswd bob", "htpasswd -i"),
    ("echo '{v}' | gpg --batch --passphrase-fd 0 -d secrets.gpg", "--passphrase-fd 0"),
    ("echo '{v}' | openssl pkcs12 -in a.p12 -passin stdin", "-passin stdin"),
    ("sudo -S apt update <<< '{v}'", "sudo -S"),
    ("chpasswd <<< 'bob:{v}'", "bob:"),
    ("heroku login -i <<< 'bob@example.com\\n{v}'", "heroku login -i"),
    ("heroku login -i <<< $'bob@example.com\\n{v}'", "heroku login -i"),
    ('spawn ssh bob@host\nexpect "*assword:"\nsend "{v}\\r"\ninteract', "send"),
    ('expect: send "{v}\\r"', "send"),
    ('expect -c \'spawn su; expect "Password:"; send -- "{v}\\n"; interact\'', "interact"),
]


@pytest.mark.parametrize(("shape", "kept"), PIPED, ids=lambda x: str(x)[:40])
def test_a_password_fed_on_stdin_or_sent_goes(shape: str, kept: str) -> None:
    text = shape.format(v=PW)
    for carrier, written in {
        "shell": text,
        "bash -c repr": repr(["bash", "-c", text]),
        "shell=True error": f"Command '{text}' returned non-zero exit status 1.",
    }.items():
        out = th.redact(written)
        assert PW not in out, (carrier, out)
        assert kept in out.replace("\\\\", "\\"), (carrier, out)


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(PIPED), strong())
def test_random_passwords_fed_on_stdin_go(case: tuple[str, str], value: str) -> None:
    text = case[0].format(v=value)
    assert value not in th.redact(text), text


# -- 3. what stays ---------------------------------------------------------------------

KEPT = [
    "ssh -p 2222 deploy@host",
    "cp -p a.txt b.txt",
    "docker run -p 8080:80 nginx",
    "mysql -u root -p app",
    "htpasswd -D .htpasswd bob",
    "useradd -m -s /bin/bash deploy",
    "ssh-keygen -t ed25519 -N '' -f id_ed25519",
    "vault login -method=userpass username=bob",
    "vault login -method github",
    "echo hello | grep h",
    "echo yes | apt-get install nginx",
    "echo $PW | sudo -S apt update",
    'echo "$DB_PASSWORD" | docker login -u ci --password-stdin',
    'expect "Are you sure you want to continue connecting"\nsend "yes\\r"',
    'send "hello world\\r"',
    "Command '['htpasswd', '-b', 'f', 'bob']' returned non-zero exit status 1.",
    "['chpasswd', '-e']",
    "X-Auth-Token is the header for the token.",
    "MyService is the new API token.",
    "Reset-Token (the header) names the token.",
    "That is the password policy.",
    "the password is out-of-date",
    "the password is up-to-date",
    "We updated it; see the password manager.",
]


@pytest.mark.parametrize("text", KEPT)
def test_commands_and_sentences_without_a_password_stay(text: str) -> None:
    assert th.redact(text) == text


def test_a_command_named_for_a_password_keeps_its_flags() -> None:
    """cold19: ``['htpasswd', '-b', …]`` lost ``-b`` (a label item, ``htpasswd``, then
    the next item) and kept the password; now the flag stays and the password goes."""
    out = th.redact(
        "Command '['htpasswd', '-b', 'f', 'bob', 'x']' returned non-zero exit status 1."
    )
    assert (
        out
        == "Command '['htpasswd', '-b', 'f', 'bob', '[redacted:secret]']' returned non-zero exit status 1."
    )


# -- 4. a value before its label -------------------------------------------------------

BEFORE = [
    "{v} is the new root password",
    "{v} was your password",
    "`{v}` is the current admin password for prod.",
    "'{v}' (password) was rejected",
    "'{v}' (the admin password) was rejected",
    "Use this to log in: `{v}`, the password for the staging box.",
    "Login failed with {v}, the password you gave.",
    "{v} is the new API key for billing",
    '"{v}" is your temporary passcode.',
]


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(BEFORE), strong())
def test_a_secret_shaped_value_before_its_label_goes(shape: str, value: str) -> None:
    text = shape.format(v=value)
    out = th.redact(text)
    assert value not in out, (text, out)
    assert out.split("[redacted:secret]")[-1] == text.split(value)[-1], out


@pytest.mark.parametrize(
    "text",
    [
        "hunter22 is the new password",  # no three classes: a word and digits
        "admin123 is the user, not the password",
        "Qx7!pLm2 is the new release name",  # no label after
        "Qx7!pLm2 is the password policy's name",  # the label goes on: a noun's
    ],
)
def test_the_rule_before_a_label_is_narrow(text: str) -> None:
    assert th.redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "the vault passphrase is correct-horse-battery-staple-58",
        "the vault password is correct-horse-battery-staple",
        "passphrase is tidy_lamp_orbit_42",
    ],
)
def test_a_passphrase_of_joined_words_after_is_goes(text: str) -> None:
    """cold19: ``password is x`` took a token, not words joined by dashes (an
    identifier's shape, read as prose); after a password's label they are a passphrase."""
    out = th.redact(text)
    assert out.endswith(" is [redacted:secret]"), out


# -- 5. real CalledProcessError raised in a tool, through Session.call -------------------


def _failing(tmp_path: Path, name: str) -> str:
    """An executable named ``name`` that exits 1 (the real command never runs)."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\nexit 1\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _line(argv: list[str] | str, *, shell: bool = False) -> str:
    @th.tool(name="run", retries=0)
    def run(q: str) -> str:
        subprocess.run(argv, check=True, shell=shell, capture_output=True)
        return "ok"

    return th.Session([run], line_cap=4000).call("run", {"q": "x"}).content


@pytest.mark.skipif(os.name != "posix", reason="a /bin/sh script")
@pytest.mark.parametrize(("shape", "flag"), ARGVS[:12], ids=lambda x: str(x)[:40])
def test_a_real_called_process_error_loses_the_password(
    tmp_path: Path, shape: list[str], flag: str
) -> None:
    argv = _argv(shape, PW)
    argv[0] = _failing(tmp_path, argv[0])
    line = _line(argv)
    assert "returned non-zero exit status 1" in line, line
    assert PW not in line and flag in line, line


def test_a_real_error_of_the_interpreter_running_the_argv_loses_the_password() -> None:
    line = _line([sys.executable, "-c", "raise SystemExit(1)", "sshpass", "-p", PW, "ssh", "h"])
    assert "returned non-zero exit status 1" in line and "'-p'" in line, line
    assert PW not in line, line


@pytest.mark.skipif(os.name != "posix", reason="a POSIX shell")
@pytest.mark.parametrize(("shape", "kept"), PIPED[:14], ids=lambda x: str(x)[:40])
def test_a_real_shell_error_loses_a_password_fed_on_stdin(shape: str, kept: str) -> None:
    """``shell=True``: the shell exits before the pipeline runs; the error quotes it."""
    line = _line("exit 1; " + shape.format(v=PW), shell=True)
    assert "returned non-zero exit status 1" in line, line
    assert PW not in line, line


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(ARGVS[:12]), strong())
def test_random_passwords_go_from_real_errors(case: tuple[list[str], str], value: str) -> None:
    argv = [sys.executable, "-c", "raise SystemExit(1)", *_argv(case[0], value)]
    line = _line(argv)
    assert value not in line and case[1] in line, line
