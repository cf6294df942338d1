package com.sandboxgateway.upstream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.Map;

import org.apache.hc.client5.http.ConnectTimeoutException;
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
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * The one HTTP client that talks to OpenAI. It adds the organisation's key, streams bodies both ways
 * and maps transport failures to gateway errors; it never retries on its own.
 */
public final class UpstreamClient implements AutoCloseable {

    private final URI baseUrl;
    private final String authorization;
    private final PoolingHttpClientConnectionManager connections;
    private final CloseableHttpClient http;
    private final RequestConfig plainConfig;
    private final RequestConfig streamingConfig;

    public UpstreamClient(URI baseUrl, String apiKey, UpstreamProperties properties) {
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

    /**
     * Sends the request and returns as soon as the status and headers are in; the caller owns the
     * returned answer and must close it.
     *
     * @throws GatewayException {@code upstream_timeout} or {@code upstream_error} when no answer came
     */
    public UpstreamResponse send(UpstreamRequest request) {
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
                    new InputStreamEntity(stream.content(), stream.length(), ContentType.parse(stream.contentType())));
        }
        try {
            ClassicHttpResponse response = http.executeOpen(null, message, null);
            return new UpstreamResponse(message, response);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** Maps an I/O failure while talking to the upstream to the error the client sees. */
    public static GatewayException failure(IOException e) {
        if (e instanceof ConnectTimeoutException || e instanceof InterruptedIOException) {
            return new GatewayException(ErrorCode.UPSTREAM_TIMEOUT,
                    "The upstream API did not answer in time. Retry later; long code-interpreter runs can use background mode.",
                    null, e);
        }
        return new GatewayException(ErrorCode.UPSTREAM_ERROR,
                "The upstream API failed to answer properly (" + e.getClass().getSimpleName() + "). Retry later.", null, e);
    }

    /** Connections currently leased, idle and awaited; used by health checks and leak tests. */
    public PoolStats poolStats() {
        return connections.getTotalStats();
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
