// TransHostCoordinators
