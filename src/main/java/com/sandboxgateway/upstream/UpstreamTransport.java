package com.sandboxgateway.upstream;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
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
    private final RequestConfig plainConfig;
    private final RequestConfig streamingConfig;

    UpstreamTransport(URI baseUrl, String apiKey, UpstreamProperties properties) {
        this.baseUrl = baseUrl;
        this.authorization = "Bearer " + apiKey;
        Timeout connectTimeout = Timeout.of(properties.connectTimeout());
        this.connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(properties.maxConnections())
                .setMaxConnPerRoute(properties.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(connectTimeout)
                        .setSocketTimeout(Timeout.of(properties.readTimeout()))
                        .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                        .build())
                .build();
        this.plainConfig = RequestConfig.custom()
                .setConnectionRequestTimeout(connectTimeout)
                .setResponseTimeout(Timeout.of(properties.readTimeout()))
                .build();
        this.streamingConfig = RequestConfig.copy(plainConfig)
                .setResponseTimeout(Timeout.of(properties.streamIdleTimeout()))
                .build();
        this.http = HttpClients.custom()
                .setConnectionManager(connections)
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }

    /** Sends the request; returns once status and headers are in, with the body still on the wire. */
    UpstreamResponse exchange(UpstreamRequest request) throws IOException {
        HttpUriRequestBase message = new HttpUriRequestBase(request.method(), baseUrl.resolve(request.pathAndQuery()));
        message.setConfig(request.streaming() ? streamingConfig : plainConfig);
        for (Map.Entry<String, String> header : request.headers().entrySet()) {
            message.setHeader(header.getKey(), header.getValue());
        }
        message.setHeader("Authorization", authorization);
        switch (request.body()) {
            case UpstreamRequest.NoBody none -> { }
            case UpstreamRequest.Bytes bytes ->
                    message.setEntity(new ByteArrayEntity(bytes.content(), ContentType.parse(bytes.contentType())));
            case UpstreamRequest.Stream stream -> message.setEntity(
                    new StreamedEntity(stream.content(), stream.length(), ContentType.parse(stream.contentType())));
        }
        return new UpstreamResponse(message, http.executeOpen(null, message, null));
    }

    PoolStats poolStats() {
        return connections.getTotalStats();
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
