package com.sandboxgateway.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.Timeout;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * Downloads a file an app named by URL ({@code input_file.file_url}), so the gateway can sanitize it
 * instead of letting OpenAI fetch it unchecked. Only listed hosts, https unless the entry says
 * {@code http://}; each host name is resolved once and the connection goes to exactly the addresses
 * checked, so a second lookup cannot point it elsewhere; private, loopback and link-local addresses
 * are refused unless the entry is that address itself; redirects are followed only on the same
 * host; the size cap holds while reading; connect and read time out.
 */
public final class FileFetcher implements AutoCloseable {

    private static final int MAX_REDIRECTS = 5;
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");

    private final List<Source> sources;
    private final long maxBytes;
    private final CloseableHttpClient http;
    private final RequestConfig config;

    /** A file as fetched: its bytes, the name its URL gives it and its media type ({@code null} if not said). */
    public record Fetched(byte[] bytes, String filename, String mediaType) {
    }

    /**
     * @param fetchFrom the allowed sources: {@code host}, {@code host:port} (https) or {@code http://host:port}
     * @param maxBytes larger files are refused ({@code file_too_large}) as soon as the cap is passed
     */
    public FileFetcher(List<String> fetchFrom, Duration connectTimeout, Duration readTimeout, long maxBytes) {
        this.sources = fetchFrom.stream().map(Source::parse).toList();
        this.maxBytes = maxBytes;
        this.config = RequestConfig.custom().setConnectionRequestTimeout(Timeout.of(connectTimeout))
                .setResponseTimeout(Timeout.of(readTimeout)).build();
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(new CheckedResolver())
                        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.of(connectTimeout))
                                .setSocketTimeout(Timeout.of(readTimeout)).build())
                        .build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .build();
    }

    /**
     * The file at {@code url}.
     *
     * @throws GatewayException {@code file_url_not_allowed} for a source not listed, a forbidden address or a
     *         redirect to another host; {@code file_too_large}; {@code invalid_request} when the host fails to send it
     */
    public Fetched fetch(String url) {
        URI uri = parse(url);
        if (uri == null || sources.stream().noneMatch(source -> source.matches(uri))) {
            throw notAllowed("its host is not one the gateway may fetch from");
        }
        URI current = uri;
        for (int redirects = 0; redirects <= MAX_REDIRECTS; redirects++) {
            HttpGet get = new HttpGet(current);
            get.setConfig(config);
            try (ClassicHttpResponse response = http.executeOpen(null, get, null)) {
                int status = response.getCode();
                Header location = response.getFirstHeader("Location");
                if (status >= 300 && status < 400 && location != null) {
                    URI next = redirectTarget(current, location.getValue());
                    if (next == null || !sameSource(current, next)) {
                        throw notAllowed("it redirects to another host");
                    }
                    current = next;
                    continue;
                }
                if (status != 200 || response.getEntity() == null) {
                    throw failed("the host answered " + status);
                }
                return new Fetched(read(response.getEntity()), filename(current), mediaType(response.getEntity()));
            } catch (ForbiddenAddress e) {
                throw notAllowed("its host resolves to a private, loopback or link-local address");
            } catch (IOException e) {
                throw failed("the download failed (" + e.getClass().getSimpleName() + ")");
            }
        }
        throw failed("it redirects more than " + MAX_REDIRECTS + " times");
    }

    private byte[] read(HttpEntity entity) throws IOException {
        if (entity.getContentLength() > maxBytes) {
            throw tooLarge();
        }
        try (InputStream in = entity.getContent()) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw tooLarge();
            }
            return bytes;
        }
    }

    private GatewayException tooLarge() {
        return new GatewayException(ErrorCode.FILE_TOO_LARGE, "The file behind file_url is larger than the upload limit of "
                + maxBytes + " bytes. Send a smaller file.", null, null);
    }

    /** Where a redirect points, or {@code null} when its {@code Location} is not a URL the fetcher would follow. */
    private static URI redirectTarget(URI from, String location) {
        try {
            return parse(from.resolve(location.trim()).toString());
        } catch (IllegalArgumentException notAUrl) {
            return null;
        }
    }

    private static boolean sameSource(URI from, URI to) {
        return to.getHost() != null && from.getScheme().equalsIgnoreCase(to.getScheme())
                && from.getHost().equalsIgnoreCase(to.getHost()) && port(from) == port(to);
    }

    private static String filename(URI uri) {
        String path = uri.getPath() == null ? "" : uri.getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String mediaType(HttpEntity entity) {
        if (entity.getContentType() == null) {
            return null;
        }
        try {
            return ContentType.parse(entity.getContentType()).getMimeType().toLowerCase(Locale.ROOT);
        } catch (RuntimeException unparsable) {
            return null;
        }
    }

    private static URI parse(String url) {
        try {
            URI uri = new URI(url);
            return uri.getHost() == null || uri.getRawUserInfo() != null ? null : uri;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static int port(URI uri) {
        return uri.getPort() >= 0 ? uri.getPort() : "http".equalsIgnoreCase(uri.getScheme()) ? 80 : 443;
    }

    private static GatewayException notAllowed(String why) {
        return new GatewayException(ErrorCode.FILE_URL_NOT_ALLOWED, "The gateway will not fetch this file_url: " + why
                + ". Upload the file through POST /v1/files and send its file_id, or send it inline as file_data.", null, null);
    }

    private static GatewayException failed(String why) {
        return new GatewayException(ErrorCode.INVALID_REQUEST, "The file behind file_url could not be fetched: " + why
                + ". Check the URL, or upload the file through POST /v1/files.", null, null);
    }

    @Override
    public void close() throws IOException {
        http.close();
    }

    /** One {@code fetch-from} entry. */
    private record Source(String scheme, String host, int port) {

        static Source parse(String entry) {
            String text = entry.trim().toLowerCase(Locale.ROOT);
            URI uri = FileFetcher.parse(text.contains("://") ? text : "https://" + text);
            if (uri == null || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                    || (uri.getPath() != null && !uri.getPath().isEmpty()) || uri.getQuery() != null) {
                throw new IllegalArgumentException("gateway.policy.org.files.file-urls.fetch-from: '" + entry
                        + "' is not a host, host:port or http(s)://host:port");
            }
            return new Source(uri.getScheme(), uri.getHost(), FileFetcher.port(uri));
        }

        boolean matches(URI uri) {
            return scheme.equalsIgnoreCase(uri.getScheme()) && host.equalsIgnoreCase(uri.getHost()) && port == FileFetcher.port(uri);
        }
    }

    /** Raised inside the connection when a host resolves to an address it may not reach. */
    private static final class ForbiddenAddress extends UnknownHostException {
        ForbiddenAddress(String host) {
            super(host);
        }
    }

    /**
     * Resolves once, per connection, and hands the client only addresses that passed the check. An
     * address literal passes whatever it is: it could only be reached because an entry lists it.
     */
    private static final class CheckedResolver implements DnsResolver {

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            InetAddress[] addresses = InetAddress.getAllByName(bare);
            if (IP_LITERAL.matcher(bare).matches()) {
                return addresses;
            }
            for (InetAddress address : addresses) {
                if (address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                        || address.isAnyLocalAddress() || address.isMulticastAddress() || isUniqueLocal(address)
                        || isSharedAddressSpace(address)) {
                    throw new ForbiddenAddress(host);
                }
            }
            return addresses;
        }

        @Override
        public String resolveCanonicalHostname(String host) {
            return host;
        }

        /** 100.64.0.0/10 (carrier-grade NAT, often a cluster's internal network), which Java does not call private. */
        private static boolean isSharedAddressSpace(InetAddress address) {
            byte[] bytes = address.getAddress();
            return bytes.length == 4 && (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64;
        }

        /** IPv6 fc00::/7, the private range {@link InetAddress#isSiteLocalAddress} does not cover. */
        private static boolean isUniqueLocal(InetAddress address) {
            return address.getAddress().length == 16 && (address.getAddress()[0] & 0xfe) == 0xfc;
        }
    }
}
