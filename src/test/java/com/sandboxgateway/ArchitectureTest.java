package com.sandboxgateway;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.ResponseInspector;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "com.sandboxgateway", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule featurePackagesHaveNoCycles =
            slices().matching("com.sandboxgateway.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyUpstreamSpeaksHttpToOpenAi = noClasses()
            .that().resideOutsideOfPackage("com.sandboxgateway.upstream..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.hc..", "java.net.http..");

    /** The audit records what the controller refused ({@code RequestRefused}), so it must not need the controller. */
    @ArchTest
    static final ArchRule auditSitsBelowTheController = noClasses()
            .that().resideInAPackage("com.sandboxgateway.audit..")
            .should().dependOnClassesThat().resideInAPackage("com.sandboxgateway.proxy..");

    /** Sessions live in the budget, which reads their failures through the query the audit hands it (no cycle). */
    @ArchTest
    static final ArchRule theBudgetSitsBelowTheAudit = noClasses()
            .that().resideInAPackage("com.sandboxgateway.budget..")
            .should().dependOnClassesThat().resideInAPackage("com.sandboxgateway.audit..");

    /** The OpenAI format is read the same way by everyone: its views know no policy, budget or controller. */
    @ArchTest
    static final ArchRule theAnswerModelOnlyReadsTheFormat = classes()
            .that().resideInAPackage("com.sandboxgateway.openai..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("com.sandboxgateway.openai..", "com.sandboxgateway.api..",
                    "com.sandboxgateway.upstream..", "java..", "tools.jackson..");

    /** The relay parses each answer once; inspectors read the parsed {@code Answer}, never the bytes again. */
    @ArchTest
    static final ArchRule inspectorsDoNotParseAnswersAgain = noClasses()
            .that().implement(ResponseInspector.class)
            .should().callMethodWhere(target(name("readTree")));

    /** A follow-up call to OpenAI because of an answer is an {@code AfterAnswer}, declared in the chain table. */
    @ArchTest
    static final ArchRule inspectorsDoNotCallTheUpstream = noClasses()
            .that().implement(ResponseInspector.class)
            .should().dependOnClassesThat().haveFullyQualifiedName("com.sandboxgateway.upstream.UpstreamClient");

    /** A step returns its refusal as a {@code Decision}; only the controller writes it to the client. */
    @ArchTest
    static final ArchRule stepsDoNotWriteAnswers = noClasses()
            .that().implement(RequestStep.class)
            .should().dependOnClassesThat().resideInAPackage("com.sandboxgateway.proxy..");

    @ArchTest
    static final ArchRule policyStepsDoNotKnowTheServletApi = noClasses()
            .that().resideInAPackage("com.sandboxgateway.policy..")
            .should().dependOnClassesThat().resideInAPackage("jakarta.servlet..");
}
