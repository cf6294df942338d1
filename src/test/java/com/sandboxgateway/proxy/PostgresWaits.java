package com.sandboxgateway.proxy;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

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

    private final int targetPort;
    private final ServerSocket server;
    private final AtomicInteger syncs = new AtomicInteger();

    PostgresWaits(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(this::accept);
    }

    int port() {
        return server.getLocalPort();
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
        server.close();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                Thread.ofPlatform().daemon().start(() -> relay(client, target, true));
                Thread.ofPlatform().daemon().start(() -> relay(target, client, false));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void relay(Socket from, Socket to, boolean frontend) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            if (frontend) {
                frontendMessages(new DataInputStream(in), out);
            } else {
                in.transferTo(out);
            }
        } catch (IOException dropped) {
            // One side went away; closing both ends tells the other.
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // Already closed.
            }
        }
    }

    /** Passes the client's messages on one by one, counting its Syncs: untyped until the startup message, typed after. */
    private void frontendMessages(DataInputStream in, OutputStream out) throws IOException {
        int code;
        do {
            int length = in.readInt();
            code = in.readInt();
            out.write(header(-1, length));
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
            out.write(header(type, length));
            out.write(body);
        }
    }

    private static byte[] header(int type, int length) {
        byte[] size = intBytes(length);
        if (type < 0) {
            return size;
        }
        return new byte[] {(byte) type, size[0], size[1], size[2], size[3]};
    }

    private static byte[] intBytes(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }
}
