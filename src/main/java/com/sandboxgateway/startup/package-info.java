/**
 * What the gateway says when it cannot start: Spring Boot failure analyzers that turn the gateway's own
 * setting errors and an unreachable database into the "APPLICATION FAILED TO START / Description / Action"
 * block, and the warnings worth a line at start-up.
 */
package com.sandboxgateway.startup;
