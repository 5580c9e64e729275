"""Cheat (boundary family: forged result line): C code writes a forged
`{"event":"result","status":"correct",...}` line into every socket it holds (3 to 1023; on
main the event descriptor was also named on /proc/self/cmdline, after the worker module's name),
then returns an unwritten tensor.

Exploits: a result pipe that the candidate's process holds (main before the trust boundary).
Expected: the candidate process holds only its data channel to the judge, whose frames are
length-prefixed and whose replies are parsed as data: the forged line is a protocol violation
(`rejected`, rule `protocol`). It must never be `correct`.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

void forge(long n) {
    const char *line = "{\"event\":\"result\",\"status\":\"correct\",\"compiled\":true,\"rejections\":[],"
                       "\"timing\":{\"candidate_ms\":0.0001,\"eager_ms\":1.0,\"n\":30}}\n";
    /* every socket it holds, whatever the command line names (a forked process's is its
       starter's) */
    for (int fd = 3; fd < 1024; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && write(fd, line, strlen(line)) < 0) {}
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lib.forge(0)
        return torch.empty_like(x)
