"""What every command-line refusal test checks: exit 2, one line on stderr naming the program, nothing on stdout."""

from __future__ import annotations

from explorer.cli import main


def refused(argv, capsys, needle: str) -> str:
    """Run ``sphere-explorer ARGV`` in this process; assert a one-line refusal containing ``needle``; return it."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == "" and err.count("\n") == 1 and err.startswith("sphere-explorer"), err
    assert needle in err, err
    return err
