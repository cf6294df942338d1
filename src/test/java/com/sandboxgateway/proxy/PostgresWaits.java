package com.sandboxgateway.proxy;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;

import com.sandboxgateway.support.TcpProxy;

/**
 * A relay in front of PostgreSQL that reads what its clients send as PostgreSQL's frontend protocol and counts the
 * {@code Sync} messages: a client waits for the server's answer at each (the extended protocol's end of a round trip),
 * however the bytes were split into TCP segments. Clients must not ask for TLS ({@code sslmode=disable}): the relay
 * reads the messages in the clear.
 */
final class PostgresWaits implements AutoCloseable {

    /** The request codes of the untyped messages a connection may begin with before its startup message. */
    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;

    private final AtomicInteger syncs = new AtomicInteger();
    private final TcpProxy relay;

    PostgresWaits(int targetPort) throws IOException {
        this.relay = new TcpProxy(targetPort, this::frontendMessages);
    }

    int port() {
        return relay.port();
    }

    void clear() {
        syncs.set(0);
    }

    /** The {@code Sync} messages sent since the last {@link #clear()}. */
    int syncs() {
        return syncs.get();
    }

    @Override
    public void close() throws IOException {
        relay.close();
    }

    /** Passes the client's messages on one by one, counting its Syncs: untyped until the startup message, typed after. */
    private void frontendMessages(InputStream from, OutputStream out) throws IOException {
        DataInputStream in = new DataInputStream(from);
        int code;
        do {
            int length = in.readInt();
            code = in.readInt();
            out.write(intBytes(length));
            out.write(intBytes(code));
            out.write(in.readNBytes(length - 8));
        } while (code == SSL_REQUEST || code == GSS_REQUEST);
        while (true) {
            int type = in.read();
            if (type < 0) {
                throw new EOFException();
            }
            int length = in.readInt();
            byte[] body = in.readNBytes(length - 4);
            if (type == 'S') {
                syncs.incrementAndGet();
            }
            out.write(type);
            out.write(intBytes(length));
            out.write(body);
        }
    }

    private static byte[] intBytes(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }
}
