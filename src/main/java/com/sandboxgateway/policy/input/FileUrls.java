package com.sandboxgateway.policy.input;

import java.util.Base64;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.upstream.FileFetcher;

import tools.jackson.databind.node.ObjectNode;

/**
 * {@code input_file.file_url} and a remote {@code input_image.image_url} would have OpenAI download a
 * file the gateway never saw. A URL on a host in {@code gateway.policy.org.files.file-urls.fetch-from} is
 * fetched by the gateway instead and put in the part inline ({@code file_data}, or a {@code data:}
 * {@code image_url}), so the inline-file rules that run next sanitize it like an upload; any other URL
 * is refused ({@code file_url_not_allowed}).
 */
public final class FileUrls implements RequestStep {

    private final FileFetcher fetcher;

    public FileUrls(FileFetcher fetcher) {
        this.fetcher = fetcher;
    }

    @Override
    public Decision apply(Exchange exchange) {
        for (InputPlaces.InlineFile file : exchange.inputs().files()) {
            if (!file.hasUrl()) {
                continue;
            }
            String param = file.path() + "." + file.urlField();
            if (file.hasData()) {
                return Decision.reject(ErrorCode.INVALID_REQUEST, param + ": send either file_url or file_data, not both.", param);
            }
            try {
                inline(file, fetcher.fetch(file.url()));
            } catch (GatewayException refused) {
                return Decision.reject(refused.code(), param + ": " + refused.getMessage(), param);
            }
            exchange.jsonEdited();
        }
        return Decision.PROCEED;
    }

    private static void inline(InputPlaces.InlineFile file, FileFetcher.Fetched fetched) {
        ObjectNode part = file.part();
        if (!file.image() && !part.path("filename").isString() && !fetched.filename().isBlank()) {
            part.put("filename", fetched.filename());
        }
        String mediaType = fetched.mediaType() == null ? "application/octet-stream" : fetched.mediaType();
        file.putData("data:" + mediaType + ";base64," + Base64.getEncoder().encodeToString(fetched.bytes()));
    }
}
