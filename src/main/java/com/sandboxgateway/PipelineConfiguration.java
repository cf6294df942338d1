package com.sandboxgateway;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.audit.CodeExecutionAuditor;
import com.sandboxgateway.audit.CodeOutputsRequested;
import com.sandboxgateway.audit.RunawaySessions;
import com.sandboxgateway.budget.SpendBudget;
import com.sandboxgateway.budget.TurnBudget;
import com.sandboxgateway.containers.ContainerRules;
import com.sandboxgateway.containers.ExpiryRules;
import com.sandboxgateway.containers.FilesDeletedAfterUse;
import com.sandboxgateway.ownership.OwnedListFilter;
import com.sandboxgateway.ownership.Ownership;
import com.sandboxgateway.ownership.OwnershipCheck;
import com.sandboxgateway.ownership.OwnershipRecorder;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.policy.PolicyProperties;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.policy.TeamPolicies;
import com.sandboxgateway.policy.input.FileUrls;
import com.sandboxgateway.policy.input.UnsupportedInputs;
import com.sandboxgateway.ratelimit.RateLimits;
import com.sandboxgateway.review.InjectionDetector;
import com.sandboxgateway.sanitize.FileSanitizer;
import com.sandboxgateway.sanitize.InjectionScreening;
import com.sandboxgateway.sanitize.InlineFiles;
import com.sandboxgateway.sanitize.Pseudonymizer;
import com.sandboxgateway.sanitize.SafetyIdentifier;
import com.sandboxgateway.sanitize.UploadSanitizer;
import com.sandboxgateway.secrets.PromptGuard;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.TextGuard;
import com.sandboxgateway.skills.ContainerSkills;
import com.sandboxgateway.skills.SkillPolicies;
import com.sandboxgateway.skills.SkillUploads;
import com.sandboxgateway.tracing.RequestTracing;
import com.sandboxgateway.upstream.FileFetcher;
import com.sandboxgateway.upstream.UpstreamClient;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request pipeline, in order, in one place: the steps every request passes before it goes
 * upstream, and the inspectors every answer passes before the client sees it.
 */
@Configuration(proxyBeanMethods = false)
class PipelineConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The one client for files apps name by URL; it shares nothing with the upstream's. */
    @Bean(destroyMethod = "close")
    FileFetcher fileFetcher(PolicyProperties policy) {
        PolicyProperties.FileUrls urls = policy.org().files().fileUrls();
        return new FileFetcher(urls.fetchFrom(), urls.connectTimeout(), urls.readTimeout(),
                policy.org().files().maxUploadSize().toBytes());
    }

    @Bean
    PolicyChain policyChain(PolicyProperties policy, TeamPolicies teams, Ownership ownership, OwnershipStore ownershipStore,
                            UpstreamClient upstream, JsonMapper json, ApplicationEventPublisher events, Clock clock,
                            JdbcClient jdbc, RateLimits rateLimits, SpendBudget spend, TurnBudget turns,
                            InjectionDetector injectionDetector, MeterRegistry meters, CodeExecutionAuditor codeAuditor,
                            RunawaySessions runawaySessions, RequestTracing tracing,
                            SafetyIdentifier safetyIdentifier, FileFetcher fileFetcher) {
        Pseudonymizer pseudonymizer = Pseudonymizer.fromPolicy(policy.org().sanitization(),
                policy.org().pii().action() == PolicyProperties.PiiAction.PSEUDONYMIZE);
        SecretScanner scanner = SecretScanner.standard();
        Supplier<TextGuard> guards = () -> new TextGuard(scanner, policy.org().secrets().action(), policy.org().pii().action(),
                pseudonymizer == null ? null : pseudonymizer::pseudonym);
        InjectionScreening injection = new InjectionScreening(injectionDetector, policy.org().injection().action(), meters);
        FileSanitizer files = new FileSanitizer(policy, pseudonymizer, guards, scanner, json, injection, events, clock);
        SkillPolicies skills = new SkillPolicies(policy);
        List<RequestStep> steps = List.of(
                rateLimits,
                new ContainerRules(teams),
                // After the tool policy, so a tool a team may not use is named as such.
                new UnsupportedInputs(policy.org().unknownInput(), events, clock),
                new OwnershipCheck(ownership),
                new PromptGuard(guards, events, clock),
                new ExpiryRules(policy, teams),
                new UploadSanitizer(files),
                // Before the inline-file rules, which sanitize what it fetched.
                new FileUrls(fileFetcher),
                new InlineFiles(files),
                new SkillUploads(skills, files),
                new ContainerSkills(skills, ownership, files),
                new CodeOutputsRequested(),
                safetyIdentifier,
                spend,
                turns,
                // After the turn budget, which resolves the session (and gives its turns back on a refusal).
                runawaySessions);
        List<ResponseInspector> inspectors = new ArrayList<>(List.of(
                turns,
                spend,
                codeAuditor,
                new OwnershipRecorder(ownershipStore),
                new OwnedListFilter(ownership, upstream, json)));
        if (policy.org().files().deleteAfterUse()) {
            inspectors.add(new FilesDeletedAfterUse(upstream, ownershipStore, jdbc));
        }
        inspectors.add(tracing);
        return new PolicyChain(steps, inspectors, tracing);
    }
}
