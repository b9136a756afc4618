"""The lab commands' engines: sweeps over backends and options, random hard instances and
the hardness study over their density, with the statistics and tables they share."""
