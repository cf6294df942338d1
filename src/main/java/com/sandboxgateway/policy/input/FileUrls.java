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
 * {@code input_file.file_url} would have OpenAI download a file the gateway never saw. A URL on a host
 * in {@code gateway.policy.org.files.file-urls.fetch-from} is fetched by the gateway instead and put in
 * the part as {@code file_data}, so the inline-file rules that run next sanitize it like an upload;
 * any other URL is refused ({@code file_url_not_allowed}).
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
            String param = file.path() + ".file_url";
            if (file.hasData()) {
                return Decision.reject(ErrorCode.INVALID_REQUEST, param + ": send either file_url or file_data, not both.", param);
            }
            try {
                inline(file.part(), fetcher.fetch(file.part().path("file_url").asString()));
            } catch (GatewayException refused) {
                return Decision.reject(refused.code(), param + ": " + refused.getMessage(), param);
            }
            exchange.jsonEdited();
        }
        return Decision.PROCEED;
    }

    private static void inline(ObjectNode part, FileFetcher.Fetched file) {
        part.remove("file_url");
        if (!part.path("filename").isString() && !file.filename().isBlank()) {
            part.put("filename", file.filename());
        }
        String mediaType = file.mediaType() == null ? "application/octet-stream" : file.mediaType();
        part.put("file_data", "data:" + mediaType + ";base64," + Base64.getEncoder().encodeToString(file.bytes()));
    }
}
