# The external tree's packages (each package/<name>/<name>.mk).
include $(sort $(wildcard $(BR2_EXTERNAL_PRINTPROXY_PATH)/package/*/*.mk))
