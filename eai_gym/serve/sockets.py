"""What every ``eai-gym serve`` server shares: a listening socket bound before the server starts, and its base
URL, the first line each server prints (flushed) so that a caller that asked for ``--port 0`` learns the port."""

from __future__ import annotations

import socket


def listening_socket(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0: a free one) and listening; raises ``OSError`` naming the address.

    Made with proto ``IPPROTO_TCP``, not 0: asyncio sets ``TCP_NODELAY`` on accepted connections only then (else
    every reply waits for a delayed ACK)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError as e:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror or e}") from e
    return sock


def base_url(sock: socket.socket) -> str:
    """``http://HOST:PORT`` of a bound socket (an IPv6 host in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
