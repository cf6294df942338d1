package com.sandboxgateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay in front of a real server, which a test can cut and restore to make that server
 * unreachable for the code under test without stopping it for everyone else on the machine, or read
 * what its clients send on the way.
 */
public final class TcpProxy implements AutoCloseable {

    /** How the bytes of one direction are passed on. */
    @FunctionalInterface
    public interface Copy {

        void copy(InputStream from, OutputStream to) throws IOException;
    }

    private final int targetPort;
    private final Copy fromClients;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    public TcpProxy(int targetPort) throws IOException {
        this(targetPort, InputStream::transferTo);
    }

    /** A relay that passes what its clients send on with {@code fromClients}, the server's answers as they come. */
    public TcpProxy(int targetPort, Copy fromClients) throws IOException {
        this.targetPort = targetPort;
        this.fromClients = fromClients;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        }
        start();
    }

    public int port() {
        return port;
    }

    /** Accepts connections again, on the same port. */
    public synchronized void start() throws IOException {
        ServerSocket listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = listening;
        Thread.ofVirtual().start(() -> accept(listening));
    }

    /** Refuses new connections and drops every open one. */
    public synchronized void cut() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private void accept(ServerSocket listening) {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(target);
                Thread.ofVirtual().start(() -> pump(client, target, fromClients));
                Thread.ofVirtual().start(() -> pump(target, client, InputStream::transferTo));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to, Copy copy) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            copy.copy(in, out);
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
}
