################################################################################
#
# printproxyd
#
################################################################################

# The project's checkout (this external tree's parent), of which only the executable for the target's arch is copied.
PRINTPROXYD_SITE = $(BR2_EXTERNAL_PRINTPROXY_PATH)/..
PRINTPROXYD_SITE_METHOD = local
PRINTPROXYD_LICENSE = PROPRIETARY
PRINTPROXYD_REDISTRIBUTE = NO

# the release version, for /etc/printproxyd-version (an override of the source dir would name the version "custom")
PRINTPROXYD_RELEASE = $(call qstrip,$(BR2_PACKAGE_PRINTPROXYD_VERSION_STRING))
PRINTPROXYD_VERSION = $(PRINTPROXYD_RELEASE)

ifeq ($(BR2_aarch64),y)
PRINTPROXYD_ARCH = arm64
else
PRINTPROXYD_ARCH = x64
endif
# built by `npm run firmware -- --arch $(PRINTPROXYD_ARCH)`
PRINTPROXYD_EXECUTABLE = dist/firmware/printproxyd-linux-$(PRINTPROXYD_ARCH)

PRINTPROXYD_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--include=/dist/ --include=/dist/firmware/ --include=/$(PRINTPROXYD_EXECUTABLE) --exclude='*'

# stripping would cut off the assets appended to the executable
ifeq ($(BR2_PACKAGE_PRINTPROXYD)$(BR2_STRIP_strip),yy)
ifeq ($(filter printproxyd,$(call qstrip,$(BR2_STRIP_EXCLUDE_FILES))),)
$(error printproxyd: add "printproxyd" to BR2_STRIP_EXCLUDE_FILES (stripping cuts off the executable's appended assets))
endif
endif

define PRINTPROXYD_CHECK_EXECUTABLE
	test -f $(PRINTPROXYD_SITE)/$(PRINTPROXYD_EXECUTABLE) || { \
		echo "printproxyd: no $(PRINTPROXYD_SITE)/$(PRINTPROXYD_EXECUTABLE):" \
			"run \`npm run firmware -- --arch $(PRINTPROXYD_ARCH)\` in the project first"; \
		exit 1; }
endef
PRINTPROXYD_PRE_RSYNC_HOOKS += PRINTPROXYD_CHECK_EXECUTABLE

define PRINTPROXYD_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/$(PRINTPROXYD_EXECUTABLE) $(TARGET_DIR)/usr/bin/printproxyd
	mkdir -p $(TARGET_DIR)/etc
	printf '%s\n' '$(PRINTPROXYD_RELEASE)' > $(TARGET_DIR)/etc/printproxyd-version
endef

$(eval $(generic-package))
