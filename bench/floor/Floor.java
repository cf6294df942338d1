import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The floor under the gateway's request path: a forwarder on the gateway's own server and client libraries (embedded
 * Tomcat on virtual threads, Apache HttpClient 5 over pooled connections, Jackson) that does nothing else. It takes
 * the gateway's command-line arguments (the ports, the upstream's base URL; the rest is ignored), answers readiness on
 * the management port once it serves, answers any other request (the harness's file upload) with {@code {}}, and
 * forwards {@code POST /v1/responses} to the upstream, parsing the request and the answer with Jackson and writing
 * them again (the least the gateway does: it parses and re-emits each once). System properties:
 * {@code floor.json=false} forwards the bodies as bytes instead; {@code floor.server=jdk} serves with the JDK's own
 * HTTP server instead of Tomcat (a virtual thread per request). {@code bash bench/floor.sh} builds and measures it
 * against the gateway, {@code bench/proxy.sh} as its {@code floor} backend; see bench/README.md.
 */
public final class Floor {

    private static final boolean JSON = !"false".equals(System.getProperty("floor.json"));
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final byte[] EMPTY = "{}".getBytes(StandardCharsets.UTF_8);

    private final URI upstream;
    private final CloseableHttpClient http = HttpClients.custom()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                    .setMaxConnTotal(200).setMaxConnPerRoute(200).build())
            .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement()
            .disableContentCompression().build();

    private Floor(URI upstream) {
        this.upstream = upstream;
    }

    public static void main(String[] args) throws Exception {
        // Logback without a configuration logs everything at DEBUG, HttpClient's every exchange with it (two thirds of
        // the CPU, measured): warnings only, as the gateway's benchmark runs log.
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                options.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
        }
        Floor floor = new Floor(URI.create(options.get("gateway.upstream.base-url") + "/v1/responses"));
        int port = Integer.parseInt(options.get("server.port"));
        if ("jdk".equals(System.getProperty("floor.server"))) {
            floor.serveWithJdk(port);
        } else {
            floor.serveWithTomcat(port);
        }
        // Ready once it serves: the harness uploads and sends its first request as soon as this answers.
        HttpServer management = HttpServer.create(
                new InetSocketAddress("127.0.0.1", Integer.parseInt(options.get("management.server.port"))), 0);
        management.createContext("/", exchange -> answer(exchange, new Answer(200, "{\"status\":\"UP\"}".getBytes())));
        management.start();
    }

    /** The upstream's status and body. */
    private record Answer(int status, byte[] body) {
    }

    private Answer handle(String path, byte[] body) throws IOException {
        if (!path.equals("/v1/responses")) {
            return new Answer(200, EMPTY);
        }
        HttpPost post = new HttpPost(upstream);
        post.setHeader("Authorization", "Bearer sk-floor");
        post.setEntity(new ByteArrayEntity(JSON ? MAPPER.writeValueAsBytes(MAPPER.readTree(body)) : body,
                ContentType.APPLICATION_JSON));
        try (ClassicHttpResponse answer = http.executeOpen(null, post, null);
             InputStream in = answer.getEntity().getContent()) {
            byte[] bytes = in.readAllBytes();
            return new Answer(answer.getCode(), JSON ? MAPPER.writeValueAsBytes(MAPPER.readTree(bytes)) : bytes);
        }
    }

    private void serveWithTomcat(int port) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(System.getProperty("java.io.tmpdir") + "/floor-tomcat-" + port);
        Connector connector = new Connector();
        connector.setPort(port);
        connector.getProtocolHandler().setExecutor(new VirtualThreadExecutor("floor-"));
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "forward", new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                Answer answer = handle(request.getRequestURI(), request.getInputStream().readAllBytes());
                response.setStatus(answer.status());
                response.setContentType("application/json");
                response.setContentLength(answer.body().length);
                response.getOutputStream().write(answer.body());
            }
        });
        context.addServletMappingDecoded("/*", "forward");
        tomcat.start();
    }

    private void serveWithJdk(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                answer(exchange, handle(exchange.getRequestURI().getPath(), in.readAllBytes()));
            }
        });
        server.start();
    }

    private static void answer(HttpExchange exchange, Answer answer) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.status(), answer.body().length);
        exchange.getResponseBody().write(answer.body());
        exchange.close();
    }
}
