// TransHostScenario
