package com.sandboxgateway;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

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

    @ArchTest
    static final ArchRule policyStepsDoNotKnowTheServletApi = noClasses()
            .that().resideInAPackage("com.sandboxgateway.policy..")
            .should().dependOnClassesThat().resideInAPackage("jakarta.servlet..");
}
