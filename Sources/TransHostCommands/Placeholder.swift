// TransHostCommands
