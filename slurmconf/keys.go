package slurmconf

import (
	"slices"
	"strings"
	"sync"
)

// slurmKeys lists slurm.conf keys as spelled in Slurm's option table
// (src/common/read_config.c, slurm.conf(5)), including keys fairsim does
// not simulate: those are kept in Config.Extra without a warning, while a
// key missing here draws an "unknown key" warning.
var slurmKeys = []string{
	"AccountingStorageBackupHost", "AccountingStorageEnforce", "AccountingStorageExternalHost",
	"AccountingStorageHost", "AccountingStorageLoc", "AccountingStorageParameters",
	"AccountingStoragePass", "AccountingStoragePort", "AccountingStorageTRES",
	"AccountingStorageType", "AccountingStorageUser", "AccountingStoreFlags",
	"AccountingStoreJobComment", "AcctGatherEnergyType", "AcctGatherFilesystemType",
	"AcctGatherInfinibandType", "AcctGatherInterconnectType", "AcctGatherNodeFreq",
	"AcctGatherProfileType", "AllowSpecResourcesUsage", "AuthAltParameters", "AuthAltTypes",
	"AuthInfo", "AuthType", "BackupAddr", "BackupController", "BatchStartTimeout",
	"BcastExclude", "BcastParameters", "BurstBufferParameters", "BurstBufferType",
	"CertgenParameters", "CertgenType", "CertmgrParameters", "CertmgrType",
	"CliFilterParameters", "CliFilterPlugins", "ClusterName", "CommunicationParameters",
	"CompleteWait", "ControlAddr", "ControlMachine", "CoreSpecPlugin", "CpuFreqDef",
	"CpuFreqGovernors", "CredType", "CryptoType", "DataParserParameters", "DebugFlags",
	"DefCPUPerGPU", "DefMemPerCPU", "DefMemPerGPU", "DefMemPerNode", "DependencyParameters",
	"DisableRootJobs", "EioTimeout", "EnforcePartLimits", "Epilog", "EpilogMsgTime",
	"EpilogSlurmctld", "EpilogTimeout", "ExtSensorsFreq", "ExtSensorsType",
	"FairShareDampeningFactor", "FastSchedule", "FederationParameters", "FirstJobId",
	"GetEnvTimeout", "GpuFreqDef", "GresTypes", "GroupUpdateForce", "GroupUpdateTime",
	"HashPlugin", "HealthCheckInterval", "HealthCheckNodeState", "HealthCheckProgram",
	"HttpParserType", "InactiveLimit", "InteractiveStepOptions", "JobAcctGatherFrequency",
	"JobAcctGatherParams", "JobAcctGatherType", "JobCompHost", "JobCompLoc", "JobCompParams",
	"JobCompPass", "JobCompPassScript", "JobCompPort", "JobCompType", "JobCompUser",
	"JobContainerType", "JobCredentialPrivateKey", "JobCredentialPublicCertificate",
	"JobFileAppend", "JobRequeue", "JobSubmitPlugins", "KeepAliveTime", "KillOnBadExit",
	"KillWait", "LaunchParameters", "LaunchType", "Licenses", "LogTimeFormat", "MailDomain",
	"MailProg", "MaxArraySize", "MaxBatchRequeue", "MaxDBDMsgs", "MaxJobCount", "MaxJobId",
	"MaxMemPerCPU", "MaxMemPerNode", "MaxNodeCount", "MaxStepCount", "MaxTasksPerNode",
	"MCSParameters", "MCSPlugin", "MessageTimeout", "MetricsType", "MinJobAge", "MpiDefault",
	"MpiParams", "NamespaceType", "NodeFeaturesPlugins", "OverTimeLimit", "PluginDir",
	"PlugStackConfig", "PowerParameters", "PowerPlugin", "PreemptExemptTime", "PreemptMode",
	"PreemptParameters", "PreemptType", "PrEpParameters", "PrEpPlugins", "PriorityCalcPeriod",
	"PriorityDecayHalfLife", "PriorityFavorSmall", "PriorityFlags", "PriorityMaxAge",
	"PriorityParameters", "PrioritySiteFactorParameters", "PrioritySiteFactorPlugin",
	"PriorityType", "PriorityUsageResetPeriod", "PriorityWeightAge", "PriorityWeightAssoc",
	"PriorityWeightFairshare", "PriorityWeightJobSize", "PriorityWeightPartition",
	"PriorityWeightQOS", "PriorityWeightTRES", "PrivateData", "ProctrackType", "Prolog",
	"PrologEpilogTimeout", "PrologFlags", "PrologSlurmctld", "PrologTimeout",
	"PropagatePrioProcess", "PropagateResourceLimits", "PropagateResourceLimitsExcept",
	"RebootProgram", "ReconfigFlags", "RequeueExit", "RequeueExitHold", "ResumeFailProgram",
	"ResumeProgram", "ResumeRate", "ResumeTimeout", "ResvEpilog", "ResvOverRun", "ResvProlog",
	"ReturnToService", "RoutePlugin", "SallocDefaultCommand", "SbcastParameters",
	"SchedulerAuth", "SchedulerParameters", "SchedulerPort", "SchedulerRootFilter",
	"SchedulerTimeSlice", "SchedulerType", "ScronParameters", "SelectType",
	"SelectTypeParameters", "SlurmctldAddr", "SlurmctldDebug", "SlurmctldLogFile",
	"SlurmctldParameters", "SlurmctldPidFile", "SlurmctldPlugstack", "SlurmctldPort",
	"SlurmctldPrimaryOffProg", "SlurmctldPrimaryOnProg", "SlurmctldSyslogDebug",
	"SlurmctldTimeout", "SlurmdDebug", "SlurmdLogFile", "SlurmdParameters", "SlurmdPidFile",
	"SlurmdPort", "SlurmdSpoolDir", "SlurmdSyslogDebug", "SlurmdTimeout", "SlurmdUser",
	"SlurmSchedLogFile", "SlurmSchedLogLevel", "SlurmUser", "SrunEpilog", "SrunPortRange",
	"SrunProlog", "StateSaveLocation", "SuspendExcNodes", "SuspendExcParts",
	"SuspendExcStates", "SuspendProgram", "SuspendRate", "SuspendTime", "SuspendTimeout",
	"SwitchParameters", "SwitchType", "TaskEpilog", "TaskPlugin", "TaskPluginParam",
	"TaskProlog", "TCPTimeout", "TLSParameters", "TLSType", "TmpFS", "TopologyParam",
	"TopologyPlugin", "TrackWCKey", "TreeWidth", "UnkillableStepProgram",
	"UnkillableStepTimeout", "UrlParserType", "UsePAM", "VSizeFactor", "WaitTime",
	"X11Parameters",
	// Keys that may appear on several lines, each with its own attributes.
	"DownNodes", "FrontendName", "NodeName", "NodeSet", "PartitionName", "SlurmctldHost",
}

// nodeKeys and partitionKeys are the attributes Slurm accepts on NodeName
// and PartitionName lines (_parse_nodename, _parse_partitionname, plus
// newer ones from slurm.conf(5)).
var nodeKeys = []string{
	"BcastAddr", "Boards", "CoreSpecCount", "CoresPerSocket", "CPUs", "CPUSpecList",
	"CpuBind", "Feature", "Features", "Gres", "MemSpecLimit", "NodeAddr", "NodeHostname",
	"Parameters", "Port", "Procs", "RealMemory", "Reason", "RestrictedCoresPerGPU",
	"Sockets", "SocketsPerBoard", "State", "ThreadsPerCore", "TmpDisk", "Topology",
	"TRESWeights", "Weight",
}

var partitionKeys = []string{
	"AllocNodes", "AllowAccounts", "AllowGroups", "AllowQos", "Alternate", "CpuBind",
	"DefCPUPerGPU", "DefMemPerCPU", "DefMemPerGPU", "DefMemPerNode", "Default",
	"DefaultTime", "DenyAccounts", "DenyQos", "DisableRootJobs", "ExclusiveTopo",
	"ExclusiveUser", "GraceTime", "Hidden", "LLN", "MaxCPUsPerNode", "MaxCPUsPerSocket",
	"MaxMemPerCPU", "MaxMemPerNode", "MaxNodes", "MaxTime", "MinNodes", "Nodes",
	"OverSubscribe", "OverTimeLimit", "PowerDownOnIdle", "PreemptMode", "Priority",
	"PriorityJobFactor", "PriorityTier", "QOS", "ReqResv", "ResumeTimeout", "RootOnly",
	"SelectTypeParameters", "Shared", "State", "SuspendTime", "SuspendTimeout", "Topology",
	"TRESBillingWeights",
}

var nodeSetKeys = []string{"Feature", "Nodes"}

var downNodesKeys = []string{"Reason", "State"}

// index maps lower-cased names to their canonical spelling, because Slurm
// matches keys case-insensitively.
func index(names []string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = n
	}
	return m
}

// The lookup tables below are made at the first file read, not as the
// program starts: as package variables they cost every run 0.7 ms,
// slurm.conf or not.
var (
	topIndex       = sync.OnceValue(func() map[string]string { return index(slurmKeys) })
	nodeIndex      = sync.OnceValue(func() map[string]string { return index(nodeKeys) })
	partIndex      = sync.OnceValue(func() map[string]string { return index(partitionKeys) })
	nodeSetIndex   = sync.OnceValue(func() map[string]string { return index(nodeSetKeys) })
	downNodesIndex = sync.OnceValue(func() map[string]string { return index(downNodesKeys) })
)

// removedKeys are keys current Slurm no longer knows (so it refuses a file
// with them) but older versions accepted; a site file written for such a
// version is read with a warning that says so.
var removedKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"cachegroups":      "removed in 21.08, commit a00c693f4a",
		"checkpointtype":   "removed in 21.08, commit b4dbc72ed8",
		"jobcheckpointdir": "removed in 21.08, commit b4dbc72ed8",
	}
})

// set builds a lookup of lower-cased names.
func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}

// simulatedTop are the top-level keys whose values the simulation uses;
// every other key given in a file is listed in Config.Ignored. (Modelled
// keys that are parsed for later use are listed too.) They are the keys
// Config has fields for, the kinds of line, and JobRequeue and
// EnforcePartLimits (read, kept in Config.Extra).
var simulatedTop = sync.OnceValue(func() map[string]bool {
	return set(slices.Concat(modelledNames, []string{"NodeName", "PartitionName", "NodeSet", "DownNodes", "JobRequeue", "EnforcePartLimits"})...)
})

// simulatedAttrs are, per kind of line, the attributes the simulation
// uses; the others given are listed in Config.Ignored as "NodeName.Gres",
// "PartitionName.Hidden" and so on.
var simulatedAttrs = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"NodeName": set("Boards", "CoresPerSocket", "CPUs", "Feature", "Features", "Gres", "Procs",
			"RealMemory", "Reason", "Sockets", "SocketsPerBoard", "State", "ThreadsPerCore", "Weight"),
		"PartitionName": set("AllowAccounts", "AllowGroups", "AllowQos", "Default", "DefaultTime", "DefCPUPerGPU", "DefMemPerCPU", "DefMemPerGPU",
			"DefMemPerNode", "DenyAccounts", "DenyQos", "GraceTime", "MaxCPUsPerNode", "MaxMemPerCPU", "MaxMemPerNode", "MaxNodes", "MaxTime", "MinNodes",
			"Nodes", "OverSubscribe", "OverTimeLimit", "PreemptMode", "Priority", "PriorityJobFactor", "PriorityTier",
			"QOS", "Shared", "State", "TRESBillingWeights"),
		"NodeSet":   set(nodeSetKeys...),
		"DownNodes": set(downNodesKeys...),
	}
})

// modelledNames are the top-level keys Config has fields for.
var modelledNames = []string{
	"ClusterName", "PriorityType", "PriorityFlags", "PriorityWeightAge", "PriorityWeightAssoc",
	"PriorityWeightFairshare", "PriorityWeightJobSize", "PriorityWeightPartition",
	"PriorityWeightQOS", "PriorityWeightTRES", "PriorityMaxAge", "PriorityDecayHalfLife",
	"PriorityCalcPeriod", "PriorityUsageResetPeriod", "PriorityFavorSmall",
	"FairShareDampeningFactor", "SchedulerType", "SchedulerParameters", "SelectType",
	"SelectTypeParameters", "PreemptType", "PreemptMode", "AccountingStorageEnforce",
	"KillWait", "OverTimeLimit", "CompleteWait", "MessageTimeout",
	"DefMemPerCPU", "DefMemPerNode", "MaxMemPerCPU", "MaxMemPerNode", "DefCPUPerGPU", "DefMemPerGPU",
	"AccountingStorageTRES", "GresTypes", "PreemptExemptTime", "PreemptParameters",
}

// modelledKeys index modelledNames; the other valid keys go to
// Config.Extra.
var modelledKeys = sync.OnceValue(func() map[string]string { return index(modelledNames) })
