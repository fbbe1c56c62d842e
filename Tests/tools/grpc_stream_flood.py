#!/usr/bin/env python3
"""Header-only gRPC streams on one plain-text HTTP/2 connection from a client that never
acknowledges the server's SETTINGS, and the server's memory before and after (docs/configuration.md,
"What a gRPC connection can hold").

    grpc_stream_flood.py HOST:PORT PID STREAMS [--no-read] [--indexed] [--progress]

Streams go out in bursts of 1,000 (GetTrip, no message ever); between bursts the client reads what
the server sent, unless --no-read. With --indexed the first stream adds its headers to HPACK's dynamic
table and the others name them by index: 15 bytes a stream instead of 84. At the end it waits until the server's resident memory has not
moved for 2 s, then prints the streams sent, whether the connection is still open, the RST_STREAM
frames received, and VmRSS and VmHWM (/proc/PID/status) before and after, in MB.
"""
import argparse
import socket
import struct
import time


def frame(ftype, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream) + payload


def literal(index, value):
    return bytes([index, len(value)]) + value


def memory(pid):
    out = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) // 1024
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("pid", type=int)
    parser.add_argument("streams", type=int)
    parser.add_argument("--no-read", action="store_true", help="never read what the server sends")
    parser.add_argument("--indexed", action="store_true", help="headers by HPACK dynamic-table index after the first stream")
    parser.add_argument("--progress", action="store_true", help="a line every 10,000 streams")
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    # HPACK without Huffman or indexing: :method POST, :scheme http, :path, :authority,
    # content-type application/grpc, te trailers.
    block = (b"\x83\x86" + literal(4, b"/maps.fleetengine.v1.TripService/GetTrip") + literal(1, b"127.0.0.1")
             + b"\x0f\x10" + bytes([16]) + b"application/grpc" + b"\x00\x02te\x08trailers")
    # The same headers, added to the dynamic table (literal with incremental indexing), and then
    # named by index: te 62, content-type 63, :authority 64, :path 65.
    first_block = (b"\x83\x86" + b"\x44" + bytes([len(b"/maps.fleetengine.v1.TripService/GetTrip")]) + b"/maps.fleetengine.v1.TripService/GetTrip"
             + b"\x41" + bytes([9]) + b"127.0.0.1" + b"\x5f" + bytes([16]) + b"application/grpc" + b"\x40\x02te\x08trailers")
    indexed = b"\x83\x86\xc1\xc0\xbf\xbe"

    def header_block(i):
        if not args.indexed:
            return block
        return first_block if i == 0 else indexed

    before = memory(args.pid)
    connection = socket.create_connection((host, int(port)))
    connection.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))  # and never a SETTINGS ACK
    state = {"resets": 0, "pending": b""}

    def read(seconds):
        """Reads until `seconds` pass without data; False once the server has closed."""
        if args.no_read:
            return True
        connection.settimeout(seconds)
        try:
            while True:
                data = connection.recv(1 << 20)
                if not data:
                    return False
                pending = state["pending"] + data
                while len(pending) >= 9:
                    length = int.from_bytes(pending[:3], "big")
                    if len(pending) < 9 + length:
                        break
                    if pending[3] == 3:
                        state["resets"] += 1
                    pending = pending[9 + length:]
                state["pending"] = pending
        except socket.timeout:
            return True
        except ConnectionResetError:
            return False

    start = time.time()
    sent, is_open = 0, True
    for first in range(0, args.streams, 1000):
        burst = b"".join(frame(1, 4, 2 * i + 1, header_block(i)) for i in range(first, min(args.streams, first + 1000)))
        try:
            connection.settimeout(60)
            connection.sendall(burst)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            is_open = False
            break
        sent = min(args.streams, first + 1000)
        is_open = read(0.0001)
        if not is_open:
            break
        if args.progress and sent % 10000 == 0:
            print(f"  {sent} sent, {state['resets']} RST_STREAM, VmRSS {memory(args.pid)['VmRSS']} MB, {time.time() - start:.1f} s", flush=True)
    if is_open:
        is_open = read(3)
    last, steady = memory(args.pid)["VmRSS"], 0
    while steady < 4:
        time.sleep(0.5)
        now = memory(args.pid)["VmRSS"]
        steady = steady + 1 if abs(now - last) <= 1 else 0
        last = now
    after = memory(args.pid)
    print(f"streams sent {sent}/{args.streams} in {time.time() - start:.1f} s; connection {'open' if is_open else 'closed'}; "
          f"RST_STREAM {state['resets']}; VmRSS {before['VmRSS']} -> {after['VmRSS']} MB; VmHWM {before['VmHWM']} -> {after['VmHWM']} MB")


if __name__ == "__main__":
    main()
