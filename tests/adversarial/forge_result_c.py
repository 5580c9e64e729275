"""Cheat (boundary family: forged result line): C code finds the process's event descriptor from
/proc/self/cmdline (the number after the worker module's name) and writes a forged
`{"event":"result","status":"correct",...}` line into it, then returns an unwritten tensor.

Exploits: a result pipe that the candidate's process holds (main before the trust boundary).
Expected: the candidate process holds only its data channel to the judge, whose frames are
length-prefixed and whose replies are parsed as data: the forged line is a protocol violation
(`rejected`, rule `protocol`). It must never be `correct`.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void forge(long n) {
    char buf[4096];
    int f = open("/proc/self/cmdline", O_RDONLY);
    if (f < 0) return;
    long len = read(f, buf, sizeof(buf) - 1);
    close(f);
    if (len <= 0) return;
    buf[len] = 0;
    const char *line = "{\"event\":\"result\",\"status\":\"correct\",\"compiled\":true,\"rejections\":[],"
                       "\"timing\":{\"candidate_ms\":0.0001,\"eager_ms\":1.0,\"n\":30}}\n";
    /* try every number on the command line as a descriptor */
    for (long i = 0; i < len; i += strlen(buf + i) + 1) {
        char *arg = buf + i;
        char *end;
        long fd = strtol(arg, &end, 10);
        if (end != arg && *end == 0 && fd > 2 && fd < 1024) {
            if (write((int)fd, line, strlen(line)) < 0) {}
        }
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lib.forge(0)
        return torch.empty_like(x)
