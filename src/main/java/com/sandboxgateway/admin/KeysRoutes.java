package com.sandboxgateway.admin;

import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import com.sandboxgateway.auth.ApiKeyAuthenticator;
import com.sandboxgateway.auth.RuntimeKeys;
import com.sandboxgateway.config.TeamPolicies;

import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code keys} admin routes under the actuator's base path, in the management server only. They are
 * routes rather than an actuator {@code @Endpoint} because the actuator reads request bodies as flat string
 * maps, and a key's {@code roles} and {@code limits} are a list and an object. Deliberately not annotated:
 * imported through {@code ManagementContextConfiguration.imports}, so the application's component scan never
 * serves them on the public port. {@link AdminAccessFilter} guards them like every admin endpoint.
 */
class KeysRoutes {

    @Bean
    RouterFunction<ServerResponse> keysRoutes(RuntimeKeys keys, ApiKeyAuthenticator authenticator, TeamPolicies teams,
                                              AdminActions actions, JsonMapper json,
                                              WebEndpointProperties endpoints) {
        KeysHandlers handlers = new KeysHandlers(keys, authenticator, teams, actions, json);
        String base = endpoints.getBasePath() + "/keys";
        return RouterFunctions.route()
                .GET(base, handlers::list)
                .POST(base, handlers::issue)
                .GET(base + "/{id}", handlers::key)
                .DELETE(base + "/{id}", handlers::revoke)
                .POST(base + "/{id}/rotate", handlers::rotate)
                .POST(base + "/{id}/limits", handlers::limit)
                .build();
    }
}
