package com.sandboxgateway.upstream;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * One HTTP exchange with the upstream over pooled connections, with the org key and the configured
 * timeouts. No retries, no breaker: {@link UpstreamClient} decides those.
 */
final class UpstreamTransport implements AutoCloseable {

    private final URI baseUrl;
    private final String authorization;
    private final PoolingHttpClientConnectionManager connections;
    private final CloseableHttpClient http;
    private final RequestConfig config;
    private final UpstreamWatchdog watchdog;
    private final Duration readTimeout;
    private final Duration streamIdleTimeout;

    UpstreamTransport(URI baseUrl, String apiKey, UpstreamProperties properties) {
        this.baseUrl = baseUrl;
        this.authorization = "Bearer " + apiKey;
        Timeout connectTimeout = Timeout.of(properties.connectTimeout());
        this.connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(properties.maxConnections())
                .setMaxConnPerRoute(properties.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(connectTimeout)
                        // No read timeout on the sockets: the watchdog's (see UpstreamWatchdog).
                        .setSocketTimeout(Timeout.DISABLED)
                        .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                        .build())
                .build();
        this.config = RequestConfig.custom().setConnectionRequestTimeout(connectTimeout).build();
        this.readTimeout = properties.readTimeout();
        this.streamIdleTimeout = properties.streamIdleTimeout();
        this.watchdog = new UpstreamWatchdog(readTimeout.compareTo(streamIdleTimeout) < 0 ? readTimeout : streamIdleTimeout);
        this.http = HttpClients.custom()
                .setConnectionManager(connections)
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }

    /**
     * Sends the request; returns once status and headers are in, with the body still on the wire. The exchange may
     * stay silent (no byte either way) for the read timeout, a streamed one for the stream idle timeout.
     */
    UpstreamResponse exchange(UpstreamRequest request) throws IOException {
        HttpUriRequestBase message = new HttpUriRequestBase(request.method(), baseUrl.resolve(request.pathAndQuery()));
        message.setConfig(config);
        for (Map.Entry<String, String> header : request.headers().entrySet()) {
            message.setHeader(header.getKey(), header.getValue());
        }
        message.setHeader("Authorization", authorization);
        UpstreamWatchdog.Watch watch = watchdog.watch(message, request.streaming() ? streamIdleTimeout : readTimeout);
        try {
            switch (request.body()) {
                case UpstreamRequest.NoBody none -> { }
                case UpstreamRequest.Bytes bytes ->
                        message.setEntity(new ByteArrayEntity(bytes.content(), ContentType.parse(bytes.contentType())));
                case UpstreamRequest.Stream stream -> message.setEntity(new StreamedEntity(
                        stream.content(), stream.length(), ContentType.parse(stream.contentType()), watch::heard));
            }
            ClassicHttpResponse response = http.executeOpen(null, message, null);
            watch.heard();
            return new UpstreamResponse(message, response, watch);
        } catch (IOException e) {
            throw watch.failed(e);
        } catch (RuntimeException e) {
            watch.done();
            throw e;
        }
    }

    PoolStats poolStats() {
        return connections.getTotalStats();
    }

    @Override
    public void close() throws IOException {
        try {
            http.close();
        } finally {
            watchdog.close();
        }
    }
}
