package com.sandboxgateway.upstream;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * POSTs a signed note ({@code text/plain}) to a witness outside the gateway: a SIEM, a witness service.
 * Lives here because this package is where the gateway's outbound HTTP is kept; it knows nothing of
 * what the note says.
 */
public final class NotePublisher {

    private final HttpClient http;
    private final Duration timeout;

    public NotePublisher(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** @throws IOException when the target does not answer 2xx in time */
    public void post(URI target, String note) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout).header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(note, StandardCharsets.UTF_8)).build();
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() / 100 != 2) {
                throw new IOException(target + " answered " + response.statusCode());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while posting to " + target, e);
        }
    }
}
