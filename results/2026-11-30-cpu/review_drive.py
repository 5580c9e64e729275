"""Drives `kmosaic tasks review` through a pseudo-terminal, as a person at a terminal would
(pexpect). Run on a copy of the set: cp -r tasksets/mosaic-v1 /tmp/review-try; python review_drive.py"""
import pexpect, os
env = dict(os.environ, EDITOR="sed -i s/1e-6/1e-5/", COLUMNS="100", LINES="40")
c = pexpect.spawn("kmosaic tasks review /tmp/review-try --limit 5 --reviewer alice", env=env, encoding="utf-8", timeout=60)
c.logfile_read = open("/tmp/review_session.txt", "w")
steps = [("a", "looks like a real SwiGLU block; sizes fine"), ("r", "mostly matmul; too close to L3 MLP"),
         ("e", "eps to 1e-5"), ("s", "not sure about the scatter semantics"), ("q", None)]
for key, note in steps:
    c.expect(r"uit > ")
    c.sendline(key)
    if key == "q":
        break
    c.expect([r"note \(why; Enter for none\) > ", r"why reject\? \(a note is required\) > ", r"what did you change\? > ", r"> "])
    c.sendline(note)
c.expect(pexpect.EOF)

# second session, another reviewer: edit through $EDITOR
env = dict(os.environ, EDITOR="sed -i '1i # reviewed: the residual is part of the task'", COLUMNS="100", LINES="40")
c = pexpect.spawn("kmosaic tasks review /tmp/review-try --limit 2 --reviewer bob", env=env, encoding="utf-8", timeout=60)
c.logfile_read = open("/tmp/review_session2.txt", "w")
c.expect(r"uit > "); c.sendline("e")
c.expect(r"what did you change\? > "); c.sendline("documented the residual")
c.expect(r"uit > "); c.sendline("q")
c.expect(pexpect.EOF)
