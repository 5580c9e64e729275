"""The one data channel between a judge and its candidate process, and the tensors they share.

Messages are length-prefixed frames on a Unix socket pair. The judge writes pickles (the candidate
process may trust the judge); the candidate writes JSON only, of bounded size, which the judge
parses as data and never executes. File descriptors (CPU shared memory) travel beside a frame.

Tensors cross through memory the judge allocates and owns: memfd pages on the CPU, and CUDA IPC
handles of the judge's own device allocations on the GPU. The candidate process sees the inputs it
is given and the output buffers it writes; it never sees the reference's outputs.
"""

from __future__ import annotations

import json
import mmap
import os
import pickle
import select
import socket
import struct
import time
from dataclasses import dataclass

MAX_REPLY = 4 << 20  # a candidate's message larger than this is a protocol violation
_HEAD = struct.Struct("!QH")  # payload length, number of file descriptors


class ChannelClosed(Exception):
    """The other side went away (a crash, an exit, a kill)."""


class ChannelTimeout(Exception):
    pass


class ProtocolError(Exception):
    """The candidate process sent something that is not a well-formed reply."""


class Channel:
    def __init__(self, sock: socket.socket):
        self.sock = sock
        self._buf = b""
        self._fds: list[int] = []

    @classmethod
    def pair(cls) -> tuple["Channel", socket.socket]:
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        return cls(a), b

    def fileno(self) -> int:
        return self.sock.fileno()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    # -- sending ------------------------------------------------------------------------------------
    def _send(self, payload: bytes, fds: list[int] | tuple[int, ...] = ()) -> None:
        head = _HEAD.pack(len(payload), len(fds))
        try:
            if fds:
                socket.send_fds(self.sock, [head], list(fds))
            else:
                self.sock.sendall(head)
            self.sock.sendall(payload)
        except (BrokenPipeError, ConnectionResetError, OSError) as e:
            raise ChannelClosed(str(e)) from None

    def send_pickle(self, obj, fds=()) -> None:
        """Judge -> candidate."""
        self._send(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), fds)

    def send_json(self, obj, fds=()) -> None:
        """Candidate -> judge (and the process starter -> judge, a pidfd beside its message)."""
        self._send(json.dumps(obj, default=str, allow_nan=True).encode(), fds)

    # -- receiving ----------------------------------------------------------------------------------
    def _fill(self, n: int, deadline: float | None, spin_until: float | None = None) -> None:
        while len(self._buf) < n:
            if spin_until is not None and time.monotonic() < spin_until:
                # polling, not sleeping (TimingConfig.spin_wait): the wake-up after a sleep grows
                # with its length, so a long call would pay more of it than an empty one
                self._take(socket.MSG_DONTWAIT)
                continue
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChannelTimeout()
                r, _, _ = select.select([self.sock], [], [], min(left, 1.0))
                if not r:
                    continue
            self._take(0)

    def _take(self, flags: int) -> None:
        """One read into the buffer (nothing yet, with MSG_DONTWAIT: no change)."""
        try:
            data, fds, _flags, _addr = socket.recv_fds(self.sock, 1 << 20, 64, flags)
        except BlockingIOError:
            return
        except (ConnectionResetError, OSError) as e:
            raise ChannelClosed(str(e)) from None
        self._fds.extend(fds)
        if not data:
            raise ChannelClosed("end of file")
        self._buf += data

    def _recv(self, timeout: float | None, limit: int | None, spin_s: float = 0.0) -> tuple[bytes, list[int]]:
        deadline = None if timeout is None else time.monotonic() + timeout
        spin_until = time.monotonic() + spin_s if spin_s > 0 else None
        self._fill(_HEAD.size, deadline, spin_until)
        size, nfds = _HEAD.unpack(self._buf[: _HEAD.size])
        if limit is not None and size > limit:
            raise ProtocolError(f"a message of {size} bytes (the limit is {limit})")
        self._fill(_HEAD.size + size, deadline, spin_until)
        payload = self._buf[_HEAD.size: _HEAD.size + size]
        self._buf = self._buf[_HEAD.size + size:]
        fds, self._fds = self._fds[:nfds], self._fds[nfds:]
        return payload, fds

    def recv_pickle(self, timeout: float | None = None, spin_s: float = 0.0):
        """Candidate side: a message from the judge, with the file descriptors sent beside it
        (polled for ``spin_s`` seconds before waiting asleep)."""
        payload, fds = self._recv(timeout, None, spin_s)
        return pickle.loads(payload), fds

    def recv_json(self, timeout: float | None = None, spin_s: float = 0.0) -> dict:
        """Judge side: a candidate's reply, parsed as JSON data (never unpickled)."""
        payload, fds = self._recv(timeout, MAX_REPLY, spin_s)
        for fd in fds:  # the candidate has no business sending descriptors
            os.close(fd)
        return self._parse_json(payload)

    def recv_json_with_fds(self, timeout: float | None = None) -> tuple[dict, list[int]]:
        """Judge side, from the process starter (which runs no candidate code): a JSON message and
        the descriptors sent beside it, which the caller then owns."""
        payload, fds = self._recv(timeout, MAX_REPLY)
        try:
            return self._parse_json(payload), fds
        except ProtocolError:
            for fd in fds:
                os.close(fd)
            raise

    @staticmethod
    def _parse_json(payload: bytes) -> dict:
        try:
            msg = json.loads(payload)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ProtocolError(f"not JSON: {e}") from None
        if not isinstance(msg, dict) or not isinstance(msg.get("event"), str):
            raise ProtocolError("a reply must be an object with an 'event'")
        return msg


# -- shared tensors -------------------------------------------------------------------------------------
@dataclass
class BufferDesc:
    """How the other side maps one shared buffer (the file descriptor travels beside it on the CPU)."""

    kind: str  # "cpu" | "cuda"
    nbytes: int
    dtype: str  # "float32", ...
    shape: tuple[int, ...]
    ipc: bytes | None = None  # the CUDA IPC handle


def dtype_name(dt) -> str:
    return str(dt).replace("torch.", "")


class SharedBuffer:
    """One buffer the judge owns and shares: ``tensor`` is the judge's view of it."""

    def __init__(self, shape, dtype, device):
        import torch

        self.shape, self.dtype = tuple(int(s) for s in shape), dtype
        nbytes = max(1, int(torch.Size(self.shape).numel()) * torch.empty((), dtype=dtype).element_size())
        self.nbytes = nbytes
        self.fd: int | None = None
        self._ptr = None
        if device.type == "cuda":
            cupy = _cupy()
            # a dedicated allocation (not a pool block): its IPC handle maps exactly this buffer
            with cupy.cuda.Device(device.index or 0):
                self._ptr = cupy.cuda.runtime.malloc(nbytes)
                self._handle = bytes(cupy.cuda.runtime.ipcGetMemHandle(self._ptr))
            raw = _cuda_tensor(self._ptr, nbytes, device)
        else:
            self.fd = os.memfd_create("kmosaic-buf", os.MFD_CLOEXEC)
            os.ftruncate(self.fd, nbytes)
            self._map = mmap.mmap(self.fd, nbytes, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
            raw = torch.frombuffer(self._map, dtype=torch.uint8, count=nbytes)
        self.raw = raw
        self.tensor = raw[: self._nbytes_exact()].view(dtype).view(self.shape) if self._nbytes_exact() else \
            torch.empty(self.shape, dtype=dtype, device=device)
        self.device = device

    def _nbytes_exact(self) -> int:
        import torch

        return int(torch.Size(self.shape).numel()) * torch.empty((), dtype=self.dtype).element_size()

    def desc(self) -> BufferDesc:
        return BufferDesc("cuda" if self._ptr is not None else "cpu", self.nbytes, dtype_name(self.dtype), self.shape,
                          self._handle if self._ptr is not None else None)

    def close(self) -> None:
        if self._ptr is not None:
            try:
                _cupy().cuda.runtime.free(self._ptr)
            except Exception:  # noqa: BLE001 - the process is about to go
                pass
            self._ptr = None
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def map_buffer(desc: BufferDesc, fd: int | None, device):
    """Candidate side: a tensor over a buffer the judge shared."""
    import torch

    dtype = getattr(torch, desc.dtype)
    n = int(torch.Size(desc.shape).numel()) * torch.empty((), dtype=dtype).element_size()
    if desc.kind == "cuda":
        cupy = _cupy()
        ptr = cupy.cuda.runtime.ipcOpenMemHandle(desc.ipc, 1)  # cudaIpcMemLazyEnablePeerAccess
        raw = _cuda_tensor(ptr, desc.nbytes, device)
        keep = ptr
    else:
        m = mmap.mmap(fd, desc.nbytes, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        os.close(fd)
        raw = torch.frombuffer(m, dtype=torch.uint8, count=desc.nbytes)
        keep = m
    t = raw[:n].view(dtype).view(desc.shape) if n else torch.empty(desc.shape, dtype=dtype, device=device)
    return t, keep


def unmap(keep) -> None:
    """Candidate side: release a mapping made by :func:`map_buffer` (tensors over it must be gone)."""
    if isinstance(keep, int):
        try:
            _cupy().cuda.runtime.ipcCloseMemHandle(keep)
        except Exception:  # noqa: BLE001 - the process keeps going; the judge owns the memory
            pass
    else:
        try:
            keep.close()
        except (BufferError, ValueError):
            pass  # a tensor still views it: it goes with the process


class _CudaArray:
    def __init__(self, ptr: int, nbytes: int):
        self.__cuda_array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "data": (ptr, False), "version": 3,
                                         "strides": None}


def _cuda_tensor(ptr: int, nbytes: int, device):
    import torch

    return torch.as_tensor(_CudaArray(ptr, nbytes), device=device)


def _cupy():
    try:
        import cupy
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise RuntimeError("verifying on the GPU needs CuPy for CUDA IPC: pip install 'kernelmosaic[gpu]'") from e
    return cupy
